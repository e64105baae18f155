import { paymentService } from './app.js';

await paymentService.main();
