import { newsletterModule } from './newsletter/definition'
import { reviewsModule } from './reviews/definition'

/**
 * Every Module the store runs. `npm run modules:compile` turns this list into `mod_<id>` tables
 * and views on both engines; a test fails when the list and the committed migrations differ.
 */
export const MODULES = [reviewsModule, newsletterModule] as const
