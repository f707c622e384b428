// Entry of the bundled server (extension/dist/server.js): stdout guard first, then the server.
// The transport is stdio whatever the arguments (`--stdio`, `--clientProcessId=…`).
import './stdout-guard.js';
import { startServer } from './main.js';

startServer();
