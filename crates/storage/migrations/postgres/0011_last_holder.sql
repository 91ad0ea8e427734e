-- A released lease remembers the node that held it last (issue 55): an arbiter's act on a decided
-- match is carried out by that node, which kept the match's watchers (its end screens), so the
-- corrected result reaches them. Empty until a lease is released; an older server leaves it so.
ALTER TABLE match_leases ADD COLUMN last_node TEXT;
