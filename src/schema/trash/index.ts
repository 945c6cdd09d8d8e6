// The trash: deleted records kept for TRASH_KEEP_DAYS days, listed, restored and purged.
import "./list.ts";
import "./restore.ts";
import "./purge.ts";
