import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/**
 * The layers of docs/architecture.md are enforced by the lint config: these prove the rule
 * still bites, so a config change that silently disabled it would fail the suite.
 */
const eslint = new ESLint()
async function problems(filePath: string, code: string) {
	const [result] = await eslint.lintText(code, { filePath })
	return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`)
}

describe('import boundaries (npm run lint)', () => {
	it('refuses the data layer importing a commerce concern', async () => {
		expect(await problems('app/data/example.server.ts', "import { placeOrder } from '../orders/checkout.server'\nexport const x = placeOrder\n")).toEqual([
			expect.stringMatching(/^boundaries\/element-types: data must not import domain/),
		])
	})

	it('refuses one concern importing another it has not declared', async () => {
		expect(await problems('app/catalog/example.server.ts', "import { cartRepository } from '../cart/cart.server'\nexport const x = cartRepository\n")).toEqual([
			expect.stringMatching(/^boundaries\/element-types: domain must not import domain/),
		])
	})

	it('refuses auth importing commerce, and a route importing the Prisma client', async () => {
		expect(
			await problems('app/auth/example.server.ts', "import { mergeGuestCart } from '../cart/cart.server'\nexport const x = mergeGuestCart\n"),
		).toHaveLength(1)
		expect(await problems('app/routes/store/example.tsx', "import { getDb } from '../../data/db.server'\nexport const x = getDb\n")).toEqual([
			expect.stringMatching(/^no-restricted-imports: .*repositoriesFor\(viewer\)/),
		])
	})

	it('allows what points down: a concern importing data, a route importing the door', async () => {
		expect(await problems('app/catalog/example.server.ts', "import type { Db } from '../data/db.server'\nexport type X = Db\n")).toEqual([])
		expect(
			await problems('app/routes/store/example.tsx', "import { repositoriesFor } from '../../repositories.server'\nexport const x = repositoriesFor\n"),
		).toEqual([])
	})
})

describe('no side doors into the layers', () => {
	it('refuses a re-export of a concern from the data layer', async () => {
		expect(await problems('app/data/scope.ts', "export { placeOrder } from '../orders/checkout.server'\n")).toEqual([
			expect.stringMatching(/^boundaries\/element-types: data must not import domain/),
		])
		expect(await problems('app/data/scope.ts', "export * from '../orders/checkout.server'\n")).toEqual([
			expect.stringMatching(/^boundaries\/element-types: data must not import domain/),
		])
	})

	it('refuses a dynamic import and a require() that point up', async () => {
		expect(
			await problems('app/data/example.server.ts', "export async function later() {\n\treturn (await import('../orders/checkout.server')).placeOrder\n}\n"),
		).toEqual([expect.stringMatching(/^boundaries\/element-types: data must not import domain/)])
		expect(await problems('app/data/example.server.ts', "export const x = require('../orders/checkout.server')\n")).toEqual(
			expect.arrayContaining([expect.stringMatching(/^boundaries\/element-types: data must not import domain/)]),
		)
	})

	it('refuses a file of the app that belongs to no layer', async () => {
		expect(await problems('app/direct.server.ts', 'export const x = 1\n')).toEqual([expect.stringMatching(/^boundaries\/no-unknown-files:/)])
		expect(await problems('app/lib/helpers.ts', 'export const x = 1\n')).toEqual([expect.stringMatching(/^boundaries\/no-unknown-files:/)])
	})

	it('refuses Module code reaching the door through any other layer', async () => {
		for (const [path, through] of [
			['../../repositories.server', 'door'],
			['../../routes/store/home', 'routes'],
			['../../entry.server', 'app-shell'],
			['../../diagnostics/checks.server', 'diagnostics'],
			['../../../server/config', 'server'],
		]) {
			expect(await problems('app/modules/reviews/example.server.ts', `export { x } from '${path}'\n`), through).toEqual(
				expect.arrayContaining([expect.stringMatching(new RegExp(`^boundaries/element-types: module must not import ${through}`))]),
			)
		}
	})

	it('keeps the server off the door, and the app and server off the tests', async () => {
		expect(await problems('server/example.ts', "import { repositoriesFor } from '../app/repositories.server'\nexport const x = repositoriesFor\n")).toEqual([
			expect.stringMatching(/^boundaries\/element-types: server must not import door/),
		])
		expect(await problems('app/orders/example.server.ts', "import { DETAILS } from '../../tests/helpers/commerce'\nexport const x = DETAILS\n")).toEqual([
			expect.stringMatching(/^no-restricted-imports: .*Test helpers are for tests/),
		])
		expect(await problems('app/catalog/example.server.ts', "import { startStore } from '../../scripts/bench/servers'\nexport const x = startStore\n")).toEqual([
			expect.stringMatching(/^boundaries\/element-types: domain must not import scripts/),
		])
	})

	it('keeps the bench baseline free of the store', async () => {
		expect(
			await problems('scripts/bench/baseline/app/routes/example.tsx', "import { getDb } from '../../../../../app/data/db.server'\nexport const x = getDb\n"),
		).toEqual([expect.stringMatching(/^boundaries\/element-types: baseline must not import data/)])
	})
})

describe('the Module boundary [R31]', () => {
	it('refuses Module code importing Prisma, the data layer or another Module', async () => {
		expect(await problems('app/modules/reviews/example.server.ts', "import { PrismaClient } from '@prisma/client'\nexport const x = PrismaClient\n")).toEqual([
			expect.stringMatching(/^no-restricted-imports: .*ModuleDataService/),
		])
		expect(await problems('app/modules/reviews/example.server.ts', "import { getDb } from '../../data/db.server'\nexport const x = getDb\n")).toEqual(
			expect.arrayContaining([expect.stringMatching(/^boundaries\/element-types: module must not import data/)]),
		)
		expect(
			await problems('app/modules/newsletter/example.server.ts', "import { reviewsModule } from '../reviews/definition'\nexport const x = reviewsModule\n"),
		).toEqual([expect.stringMatching(/^boundaries\/element-types: module must not import module/)])
		expect(
			await problems('app/modules/reviews/example.server.ts', "import { cartRepository } from '../../cart/cart.server'\nexport const x = cartRepository\n"),
		).toEqual([expect.stringMatching(/^boundaries\/element-types: module must not import domain/)])
	})

	it('lets Module code use the kernel and its own folder', async () => {
		expect(
			await problems(
				'app/modules/reviews/example.server.ts',
				"import { moduleData } from '../data-service.server'\nimport { reviewsModule } from './definition'\nexport const x = [moduleData, reviewsModule]\n",
			),
		).toEqual([])
	})
})

describe('Store scope by construction [R4] [R30]', () => {
	it('refuses app code building a scope from an id it was handed', async () => {
		expect(await problems('app/orders/example.server.ts', "import { unverifiedScope } from '../data/scope'\nexport const x = unverifiedScope\n")).toEqual([
			expect.stringMatching(/^no-restricted-imports: .*viewerScope/),
		])
		expect(await problems('app/orders/example.server.ts', "import { viewerScope } from '../data/scope'\nexport const x = viewerScope\n")).toEqual([])
	})
})
