import { defineConfig } from 'prisma/config'
import { DEFAULT_DATABASE_URL, databaseProvider, schemaPath } from './app/config/database-url.ts'
import { createDriverAdapter } from './app/data/driver-adapter.server.ts'

// Offline-friendly: Prisma 6.19's WebAssembly schema engine drives the database
// through the same driver adapter the app uses (docs/decisions/002-prisma-6-pin.md).
const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL
process.env.DATABASE_URL = url

export default defineConfig({
	experimental: { adapter: true },
	engine: 'js',
	schema: schemaPath(databaseProvider(url)),
	adapter: async () => createDriverAdapter(url, { exitWhenIdle: true }),
})
