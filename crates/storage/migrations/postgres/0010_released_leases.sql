-- A released lease keeps its row, with no node, so the next node to take the match raises the
-- fence above every fence the match ever had. Deleting the row (as before) restarted the fence at
-- 1, and a node still holding an old fence 1 of that match in memory could have appended again.
ALTER TABLE match_leases ALTER COLUMN node DROP NOT NULL;
