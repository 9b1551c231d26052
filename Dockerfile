# One image for the gateway and the three services; compose.yaml picks the entry point.
# BUN_IMAGE: any image with Bun 1.4 (set it to a locally built one where no registry is reachable).
ARG BUN_IMAGE=oven/bun:1.4
FROM ${BUN_IMAGE}
WORKDIR /app
# Everything but what .dockerignore leaves out (runtimes, tests, images, dependencies).
COPY . .
RUN bun install --production --ignore-scripts
ENV SVC_HOME_DIR=/data
VOLUME /data
