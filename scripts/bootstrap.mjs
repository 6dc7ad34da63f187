#!/usr/bin/env node
// npm run setup: install dependencies and generate code, nothing else.
import { bootstrap } from "./lib/bootstrap.mjs";
bootstrap();
