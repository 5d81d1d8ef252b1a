/**
 * The bare React Router 7 app on Express that `npm run bench` measures the store against
 * The framework's node-custom-server template as it runs in production, its request logger
 * (morgan "tiny", one line per request on stdout) included: the store logs every request too.
 * Usage: node scripts/bench/baseline/server.mjs (PORT, HOST from the environment).
 */
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createRequestHandler } from '@react-router/express'
import compression from 'compression'
import express from 'express'
import morgan from 'morgan'

const here = fileURLToPath(new URL('.', import.meta.url))
const build = await import(pathToFileURL(`${here}build/server/index.js`).href)

const app = express()
app.disable('x-powered-by')
app.use(compression())
app.use('/assets', express.static(`${here}build/client/assets`, { immutable: true, maxAge: '1y' }))
app.use(morgan('tiny'))
app.use(express.static(`${here}build/client`, { maxAge: '1h' }))
app.get('/healthz', (_req, res) => res.send('ok'))
app.all('/{*path}', createRequestHandler({ build, mode: 'production' }))

const server = app.listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? '127.0.0.1', () => {
	console.log(`[baseline] listening on ${process.env.PORT ?? 3100}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
