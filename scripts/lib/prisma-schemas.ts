/**
 * One models source, two engines: prisma/models.prisma holds the models; each engine's schema
 * file is that text under the engine's own generator and datasource blocks (docs/decisions/036).
 */
import { readFileSync } from 'node:fs'

export const ENGINES = ['sqlite', 'postgresql'] as const
export type Engine = (typeof ENGINES)[number]

export const MODELS_SOURCE = 'prisma/models.prisma'
export const schemaFile = (engine: Engine) => `prisma/${engine}/schema.prisma`

function header(engine: Engine) {
	return `// Generated from prisma/models.prisma by \`npm run db:schemas\`: edit the models there, not here.

generator client {
  provider     = "prisma-client"
  output       = "../../app/data/generated/${engine}"
  engineType   = "client"
  moduleFormat = "esm"
  runtime      = "nodejs"
}

datasource db {
  provider = "${engine}"
  url      = env("DATABASE_URL")
}
`
}

/** The source's own leading comment block says how to edit it; the generated files need not repeat it. */
function modelsOf(source: string) {
	const lines = source.split('\n')
	let start = 0
	while (start < lines.length && (lines[start]!.startsWith('// ') || lines[start] === '')) start++
	return lines.slice(start).join('\n')
}

export function schemaFor(engine: Engine, source = readFileSync(MODELS_SOURCE, 'utf8')) {
	return `${header(engine)}\n${modelsOf(source)}`
}
