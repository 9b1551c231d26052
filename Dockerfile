# One image for the gateway and the three services; compose.yaml picks the entry point.
# BUN_IMAGE: any image with Bun 1.4 (set it to a locally built one where no registry is reachable).
ARG BUN_IMAGE=oven/bun:1.4
FROM ${BUN_IMAGE}
WORKDIR /app
COPY package.json tsconfig.json bunfig.toml ./
COPY contracts contracts
COPY platform platform
COPY client client
COPY supervisor supervisor
COPY gateway gateway
COPY ui ui
COPY profile-svc profile-svc
COPY model-svc model-svc
COPY orchestrator-svc orchestrator-svc
COPY cli cli
RUN bun install --production --ignore-scripts
ENV SVC_HOME_DIR=/data
VOLUME /data
