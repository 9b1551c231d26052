# The management application's image (the gateway and the three services; compose.yaml picks the
# entry point), the ordinary way: FROM an image with Bun, dependencies from the npm registry.
# Where no registry is reachable, `bun images/build.ts app` builds the same image (svc-app) from
# this checkout's installed packages instead, with no network.
ARG BUN_IMAGE=oven/bun:1.4
FROM ${BUN_IMAGE}
WORKDIR /app
# Everything but what .dockerignore leaves out (runtimes, tests, images, dependencies).
COPY . .
# The workspaces left out are dropped from package.json, then the rest is installed.
RUN bun -e 'const fs = require("fs"); const p = JSON.parse(fs.readFileSync("package.json", "utf8")); p.workspaces = p.workspaces.filter((w) => fs.existsSync(w)); fs.writeFileSync("package.json", JSON.stringify(p, null, 2));' \
 && bun install --production --ignore-scripts
