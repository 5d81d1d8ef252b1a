/**
 * `npm run modules:compile`: compiles the Module definitions (app/modules/registry.ts) into a
 * migration per engine for what changed since the snapshot (prisma/modules.json).
 * `--check` writes nothing and exits 1 when a definition changed without its migration.
 */
import { ModuleDefinitionError } from '../app/modules/define.ts'
import { SNAPSHOT_FILE, currentPlan, writePlan } from './lib/modules.ts'

if (process.argv.includes('--help')) {
	console.log(`Usage: npm run modules:compile [-- --check]

Compares the Module definitions with ${SNAPSHOT_FILE} and writes one migration per engine
(prisma/sqlite/migrations, prisma/postgresql/migrations) with the difference, then the new
snapshot. Then \`npm run init\` applies it (docs/modules.md).
--check  write nothing; exit 1 when the definitions and the committed migrations differ.`)
	process.exit(0)
}

try {
	const result = currentPlan()
	if (result.changed.length === 0) {
		console.log('Modules: the migrations match the definitions.')
		process.exit(0)
	}
	if (process.argv.includes('--check')) {
		console.error(`Modules: ${result.changed.join(', ')} changed without a migration: run \`npm run modules:compile\`.`)
		process.exit(1)
	}
	console.log(`Modules: wrote the migration ${writePlan(result)} for ${result.changed.join(', ')}.`)
} catch (error) {
	if (!(error instanceof ModuleDefinitionError)) throw error
	console.error(`Modules: ${error.message}`)
	process.exit(1)
}
