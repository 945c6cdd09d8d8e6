-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "LookupTablesVersion";
PRAGMA foreign_keys=on;

