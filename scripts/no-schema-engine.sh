#!/bin/sh
# Stand-in for Prisma's native schema engine, which is downloaded from binaries.prisma.sh and so
# cannot be had on machines limited to package registries. Client generation does not need it;
# migrations are applied by packages/service-kit/src/db/migrate.ts. See docs/decisions.md.
if [ "$1" = "--version" ]; then echo "schema-engine-cli stand-in"; exit 0; fi
echo "The Prisma schema engine is not available on this machine; use the project's migrator (npm start applies migrations)." >&2
exit 1
