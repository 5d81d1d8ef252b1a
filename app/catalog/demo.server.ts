import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { PROJECT_ROOT } from '../config/project-root.server'
import { forgetCatalog } from './catalog.server'
import { lowestPrice, variantRow } from '../rules/variants'
import type { StoreScope } from '../data/scope'

/**
 * Where a demo image goes: the Store's upload storage, after the same SVG check as every
 * upload. init passes both in (this folder does not reach into uploads).
 */
export type DemoImageSink = {
	put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
	checkSvg(bytes: Uint8Array): Promise<{ ok: true; svg: string } | { ok: false; message: string }>
	/** Told when an image could not be stored; the product is made without it. */
	failed(slug: string, error: unknown): null
}

const DEMO_IMAGE_SIZE = 800

/**
 * `npm run init -- --demo`: a handful of Products so a new store has something to sell.
 * Idempotent (by slug); never run by default.
 */
type DemoVariant = { optionValues: readonly string[]; sku: string; priceMinor: number; stock: number }
type DemoProduct = { slug: string; title: string; description: string; optionNames: readonly string[]; variants: readonly DemoVariant[] }

const one = (sku: string, priceMinor: number, stock: number) => [{ optionValues: [], sku, priceMinor, stock }]

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
	{
		slug: 'canvas-tote',
		title: 'Canvas tote bag',
		description: 'Heavy cotton canvas, long handles, an inside pocket.',
		optionNames: [],
		variants: one('TOTE', 2400, 40),
	},
	{
		slug: 'enamel-mug',
		title: 'Enamel camp mug',
		description: 'Speckled blue enamel, 350 ml. Dishwasher safe.',
		optionNames: [],
		variants: one('MUG-350', 1600, 25),
	},
	{
		slug: 'linen-napkins',
		title: 'Linen napkins (set of 4)',
		description: 'Stonewashed linen in oat. 45 × 45 cm.',
		optionNames: [],
		variants: one('NAPKIN-4', 3200, 15),
	},
	{
		slug: 'beeswax-candle',
		title: 'Beeswax pillar candle',
		description: 'Pure beeswax, about 40 hours of burn time.',
		optionNames: [],
		variants: one('CANDLE-P', 1800, 30),
	},
	{
		slug: 'field-notebook',
		title: 'Field notebook',
		description: 'A6, 96 dot-grid pages, recycled paper.',
		optionNames: [],
		variants: one('NOTE-A6', 900, 60),
	},
	{
		slug: 'wool-socks',
		title: 'Merino wool socks',
		description: 'Warm, soft, made to last. S fits EU 35–38, M EU 39–42, L EU 43–46.',
		optionNames: ['Size'],
		variants: [
			{ optionValues: ['S'], sku: 'SOCK-S', priceMinor: 2200, stock: 2 },
			{ optionValues: ['M'], sku: 'SOCK-M', priceMinor: 2200, stock: 3 },
			{ optionValues: ['L'], sku: 'SOCK-L', priceMinor: 2400, stock: 0 },
		],
	},
]

export async function seedDemoProducts(scope: StoreScope, images?: DemoImageSink) {
	const { db, storeId } = scope
	let created = 0
	for (const product of DEMO_PRODUCTS) {
		const existing = await db.product.findUnique({ where: { storeId_slug: { storeId, slug: product.slug } }, select: { id: true } })
		if (existing) continue
		// A storage that cannot be written (a bucket not there yet) costs the demo its pictures, not the set-up.
		const image = images ? await storeDemoImage(scope, images, product.slug).catch((error: unknown) => images.failed(product.slug, error)) : null
		await db.$transaction(async (tx) => {
			const { optionNames, variants, ...fields } = product
			const { id } = await tx.product.create({
				data: {
					...fields,
					storeId,
					status: 'active',
					imageKey: image?.key ?? null,
					optionNames: JSON.stringify(optionNames),
					priceMinor: lowestPrice(variants),
					variants: {
						create: variants.map((variant, position) => ({ ...variantRow(variant, position), storeId })),
					},
				},
				select: { id: true },
			})
			if (image)
				await tx.productImage.create({ data: { storeId, productId: id, key: image.key, position: 0, width: DEMO_IMAGE_SIZE, height: DEMO_IMAGE_SIZE } })
		})
		created++
	}
	if (created > 0) forgetCatalog()
	return created
}

/** The drawing in app/catalog/demo-images, stored once under a key of its own (the same on every run). */
async function storeDemoImage({ db, storeId }: StoreScope, sink: DemoImageSink, slug: string) {
	// From the project's folder, not this file's: init also runs as a bundle in build/.
	const checked = await sink.checkSvg(readFileSync(path.join(PROJECT_ROOT, 'app/catalog/demo-images', `${slug}.svg`)))
	if (!checked.ok) throw new Error(`demo image ${slug}: ${checked.message}`)
	const bytes = Buffer.from(checked.svg, 'utf8')
	const key = `stores/${storeId}/uploads/${createHash('sha256').update(`demo:${slug}`).digest('hex').slice(0, 32)}.svg`
	await sink.put(key, bytes, 'image/svg+xml')
	const sha256 = createHash('sha256').update(bytes).digest('hex')
	await db.uploadedObject.upsert({
		where: { key },
		create: { storeId, key, contentType: 'image/svg+xml', byteSize: bytes.byteLength, sha256 },
		update: {},
	})
	return { key }
}
