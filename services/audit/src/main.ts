import { auditService } from './app.js';

await auditService.main();
