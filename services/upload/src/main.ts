import { uploadService } from './app.js';

await uploadService.main();
