/**
 * Where the Module compiler keeps its state and writes its migrations: the snapshot of what the
 * committed migrations built, and the next migration folder of each engine.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { CORE_VIEWS } from '../../app/modules/core-views.ts'
import { ENGINES, EMPTY_SNAPSHOT, type Plan, type Snapshot, migrationSql, plan } from '../../app/modules/compiler.ts'
import { MODULES } from '../../app/modules/registry.ts'

export const SNAPSHOT_FILE = 'prisma/modules.json'

export function readSnapshot(file = SNAPSHOT_FILE): Snapshot {
	return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Snapshot) : EMPTY_SNAPSHOT
}

/** The plan from the committed snapshot to today's definitions. */
export const currentPlan = (snapshot = readSnapshot()): Plan => plan(snapshot, MODULES, CORE_VIEWS)

/** The folder name after the newest migration of either engine: the same slot on both. */
export function nextMigrationName(label: string, root = 'prisma') {
	const newest = ENGINES.flatMap((engine) => readdirSync(`${root}/${engine}/migrations`).filter((name) => /^\d{14}_/.test(name)))
		.map((name) => Number(name.slice(0, 14)))
		.reduce((a, b) => Math.max(a, b), 0)
	return `${String(newest + 100).padStart(14, '0')}_${label}`
}

/** Writes the plan as one migration per engine and the new snapshot; the folder's name. */
export function writePlan(result: Plan, root = 'prisma', snapshotFile = SNAPSHOT_FILE) {
	const label = `modules_${result.changed.map((c) => c.replace(':', '_')).join('_')}`.slice(0, 60)
	const name = nextMigrationName(label, root)
	for (const engine of ENGINES) {
		mkdirSync(`${root}/${engine}/migrations/${name}`, { recursive: true })
		writeFileSync(`${root}/${engine}/migrations/${name}/migration.sql`, migrationSql(result.statements[engine]))
	}
	writeFileSync(snapshotFile, `${JSON.stringify(result.snapshot, null, '\t')}\n`)
	return name
}
