// `npm run demo`: serves the repository on 127.0.0.1 (a secure origin, as OPFS needs) and
// prints the demo's address. Build the package first (`npm run build`).
import { serve } from '../test/helpers.mjs';

const { url } = await serve(Number(process.env.PORT ?? 8080));
console.log(`Mnemo demo: ${url}/www/demo/index.html  (Ctrl-C to stop)`);
