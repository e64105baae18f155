import { playlistService } from './app.js';

// The music providers come from the environment; a wrong provider variable stops the start with exit code 78, naming it.
await playlistService.main();
