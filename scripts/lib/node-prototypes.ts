import { IncomingMessage, ServerResponse } from 'node:http'
import type { Express, NextFunction, Request, Response } from 'express'

/**
 * Lets Express serve requests whose objects keep Node's own prototypes
 * (docs/decisions/062-requests-on-node-prototypes.md).
 *
 * Express 5 hands each request to `app.handle`, which moves `req` and `res` onto prototypes of
 * its own (`Object.setPrototypeOf(req, app.request)`). Measured on Node 20, a request or
 * response whose prototype is not Node's own keeps what it allocates alive through young-
 * generation collections until the next full one: a bare Express app promoted 11 KB per
 * request to the old generation where a plain `node:http` handler promoted none, and the
 * store about 20 KB of its ~58 KB per product page. Every full collection that promotion
 * brings on stalls the requests in flight.
 *
 * So Express's request and response methods are defined once on Node's own prototypes, and
 * `app.request` and `app.response` become those prototypes: Express's call then finds the
 * prototype already in place and changes nothing. Express reads its settings through
 * `req.app` and `res.app` (trust proxy, etag, query parser), which its prototypes used to
 * carry: the returned middleware, mounted first, sets both on each request.
 */
export function serveOnNodePrototypes(app: Express): (req: Request, res: Response, next: NextFunction) => void {
	defineOnce(app.request, IncomingMessage.prototype)
	defineOnce(app.response, ServerResponse.prototype)
	app.request = IncomingMessage.prototype as Express['request']
	app.response = ServerResponse.prototype as Express['response']
	return (req, res, next) => {
		req.app = app
		res.app = app
		next()
	}
}

/**
 * Copies every property Express defines between `own` (an app's prototype) and Node's `base`
 * onto `base`: the methods and getters are the same functions for every app, and read the app
 * through `this.app`. A name Node already defines is never replaced; one defined by Express
 * with a different value would change Node's behaviour, and refuses to start.
 */
function defineOnce(own: object, base: object) {
	if (own === base) return
	for (let proto = Object.getPrototypeOf(own) as object | null; proto && proto !== base; proto = Object.getPrototypeOf(proto) as object | null) {
		for (const key of Reflect.ownKeys(proto)) {
			const descriptor = Object.getOwnPropertyDescriptor(proto, key)!
			const existing = Object.getOwnPropertyDescriptor(base, key)
			if (existing) {
				if (sameDescriptor(existing, descriptor)) continue
				throw new Error(`Express defines ${String(key)}, which Node's ${base.constructor.name} already has`)
			}
			if (key in base) throw new Error(`Express defines ${String(key)}, which Node's ${base.constructor.name} inherits`)
			Object.defineProperty(base, key, descriptor)
		}
	}
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor) {
	return a.value === b.value && a.get === b.get && a.set === b.set
}
