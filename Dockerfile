# Build: compile better-sqlite3, generate Prisma clients, build the app.
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
	&& rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY app/config/database-url.ts ./app/config/
COPY app/data/driver-adapter.server.ts ./app/data/
COPY scripts/db-generate.mjs scripts/install.mjs ./scripts/
RUN node scripts/install.mjs ci
COPY . .
# Then only what runs is kept: no dev dependencies (Prisma 7's generator, tsx, the test stack),
# and not the pinned Node package either (scripts/install.mjs): this image's own Node 24 runs the
# store, and better-sqlite3 was compiled against that release's headers, the same ABI.
RUN npm run build && npm prune --omit=dev && rm -rf node_modules/node-linux-* node_modules/.bin/node

# Run: the built app (server, init and diagnose as JavaScript), production dependencies (the
# Prisma 6.19 CLI that migrations need included), no compilers, no TypeScript loader.
FROM node:24-bookworm-slim
WORKDIR /app
# /data is the one folder the node user can write: mount a volume there. The database and disk
# uploads both live in it (or set UPLOAD_STORAGE=s3). See docs/deployment.md.
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATABASE_URL=file:/data/store.db UPLOAD_DIR=/data/uploads
# glibc's malloc arenas, bounded as in `npm start` (package.json config.malloc_arena_max), and
# transparent huge pages for malloc's large blocks (config.glibc_tunables): scrypt's 32 MiB per
# hash faults in 16 pages instead of 8,192 (docs/decisions/028).
ENV MALLOC_ARENA_MAX=1
ENV GLIBC_TUNABLES=glibc.malloc.hugetlb=1
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# Readiness (docs/decisions/034): healthy while the database (and Redis or the bucket, when
# configured) answer, which is what proxies and `depends_on: service_healthy` route by. The
# image has no curl; node asks. An orchestrator that restarts unhealthy containers should ask
# /healthz (liveness) instead: restarting the store does not bring its database back.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
	CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains requests in flight for SHUTDOWN_DRAIN_SECONDS (10): give `docker stop -t 15`
# (compose: stop_grace_period: 15s) so the drain ends before the SIGKILL does.
# Migrations, the Store and the Store Admin account are ensured at every start (idempotent);
# the server refuses to start on a weak AUTH_SECRET.
# exec: the server (not a shell or npm) receives the platform's SIGTERM.
# The V8 heap flags are package.json's config.node_flags, the same as `npm start` (docs/decisions/028).
# Init runs compiled (build/init.js, what `npm run init` runs through tsx): no TypeScript is
# compiled at a start.
CMD ["sh", "-c", "node build/init.js && exec node --max-old-space-size=256 build/server.js"]
