import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The project's folder: the nearest one above `from` that holds both package.json and
 * prisma.config.ts. The same answer from the sources (app/, scripts/lib/) and from a bundle of
 * them in build/, so a module that reads a file of the project's (the migrations, the demo
 * drawings) finds it wherever esbuild or Vite put its code.
 */
export function findProjectRoot(from: string): string {
	for (let dir = from; ; dir = path.dirname(dir)) {
		if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'prisma.config.ts'))) return dir
		if (path.dirname(dir) === dir) throw new Error(`no project folder (package.json beside prisma.config.ts) above ${from}`)
	}
}

export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)))
