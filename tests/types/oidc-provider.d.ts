/** The few parts of oidc-provider 9 the test provider uses (tests/helpers/oidc-provider.ts). */
declare module 'oidc-provider' {
	import type { Server } from 'node:http'

	type Ctx = {
		oidc: {
			session?: { accountId?: string }
			client?: { clientId: string }
			provider: Provider
		}
	}
	class Grant {
		constructor(init: { clientId: string; accountId: string })
		addOIDCScope(scope: string): void
		rejectOIDCScope(scope: string): void
		save(): Promise<string>
	}
	type Account = { accountId: string; claims(): Promise<Record<string, unknown>> }
	type Configuration = {
		clients?: Record<string, unknown>[]
		scopes?: string[]
		claims?: Record<string, string[]>
		conformIdTokenClaims?: boolean
		features?: Record<string, unknown>
		cookies?: { keys: string[] }
		findAccount?(ctx: Ctx, id: string): Promise<Account | undefined>
		loadExistingGrant?(ctx: Ctx): Promise<Grant | undefined>
	}
	export default class Provider {
		constructor(issuer: string, configuration?: Configuration)
		Grant: typeof Grant
		listen(port: number, host: string, callback: () => void): Server
	}
}
