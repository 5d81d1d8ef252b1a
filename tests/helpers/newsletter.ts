import type { Db } from '../../app/data/db.server'
import { unverifiedScope } from '../../app/data/scope'
import { moduleData } from '../../app/modules/data-service.server'
import { newsletterModule } from '../../app/modules/newsletter/definition'

/** A Store's newsletter list, read and written as the newsletter Module's own code does. */
export const subscribersOf = (db: Db, storeId: string) => moduleData(unverifiedScope(db, storeId), newsletterModule)
