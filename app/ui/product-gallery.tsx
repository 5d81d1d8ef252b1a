import { srcSetOf } from './image-sources'
import { ProductImage } from './product-card'

type Image = { key: string; width: number | null; height: number | null }

/**
 * A product page's images: the first large, the others as thumbnails that open the full
 * image (links, so no JavaScript is needed). Width and height come from the upload, so the
 * page does not shift while they load.
 */
export function ProductGallery({ title, images, imageKey }: { title: string; images: readonly Image[]; imageKey: string | null }) {
	const shown = images.length > 0 ? images : imageKey ? [{ key: imageKey, width: null, height: null }] : []
	const [main, ...rest] = shown
	if (!main) return <ProductImage imageKey={null} title={title} />
	return (
		<div className="product-gallery">
			<img
				className="product-image"
				src={`/media/${main.key}`}
				alt={title}
				width={main.width ?? undefined}
				height={main.height ?? undefined}
				srcSet={srcSetOf(main.key, main.width)}
				sizes="(max-width: 48rem) 100vw, 28rem"
			/>
			{rest.length > 0 ? (
				<ul className="gallery-thumbs" aria-label="More images">
					{rest.map((image, index) => (
						<li key={image.key}>
							<a href={`/media/${image.key}`}>
								<img
									src={`/media/${image.key}`}
									alt={`${title}, image ${index + 2}`}
									width={image.width ?? undefined}
									height={image.height ?? undefined}
									srcSet={srcSetOf(image.key, image.width)}
									sizes="6rem"
									loading="lazy"
								/>
							</a>
						</li>
					))}
				</ul>
			) : null}
		</div>
	)
}
