import { userService } from './app.js';

await userService.main();
