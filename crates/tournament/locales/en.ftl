# The tournament's exports a person reads (standings, crosstable, the projector's page, pairing
# sheets), in English. The same ids as ru.ftl.
rank = Rank
team = Team
points-short = Pts
points = Points
direct-short = DE
buchholz-short = Buch
buchholz = Buchholz
sb = SB
wins = Wins
withdrawn = { $name } (withdrawn)
standings = Standings
crosstable = Crosstable
byes-short = Byes
registration = Registration: { $count ->
    [one] { $count } team
   *[other] { $count } teams
}
round-of = Round { $round } of { $total }
round-of-final = Round { $round } of { $total } (final)
rules-line = Rules { $rules } · time control { $tc }
sheet-title = { $name } — round { $round }: pairings
sheet-title-of = { $name } — round { $round } of { $total }: pairings
sheet-rules = Rules { $rules }, time control { $tc }
note = Note: { $note }
bye = Bye: { $team }
table = Table { $table }: { $first } – { $second }
table-repeat = Table { $table }: { $first } – { $second } (repeat pairing)
game = Game { $game }: seating { $seating }, colours { $colours }
pending = choices pending (due { $due })
board = Board { $board }
white = White
black = Black
result-won = Result: { $team } won
result-drawn = Result: drawn
