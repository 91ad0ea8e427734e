# Выгрузки турнира для людей (таблица, турнирная таблица, страница для проектора, листы
# жеребьёвки), по-русски. Те же идентификаторы, что в en.ftl.
rank = Место
team = Команда
points-short = Очки
points = Очки
direct-short = ЛВ
buchholz-short = Бух
buchholz = Бухгольц
sb = ЗБ
wins = Победы
withdrawn = { $name } (выбыла)
standings = Турнирное положение
crosstable = Турнирная таблица
byes-short = Без пары
registration = Регистрация: { $count ->
    [one] { $count } команда
    [few] { $count } команды
   *[many] { $count } команд
}
round-of = Тур { $round } из { $total }
round-of-final = Тур { $round } из { $total } (последний)
rules-line = Правила { $rules } · контроль времени { $tc }
sheet-title = { $name } — тур { $round }: жеребьёвка
sheet-title-of = { $name } — тур { $round } из { $total }: жеребьёвка
sheet-rules = Правила { $rules }, контроль времени { $tc }
note = Примечание: { $note }
bye = Без пары: { $team }
table = Стол { $table }: { $first } – { $second }
table-repeat = Стол { $table }: { $first } – { $second } (повторная встреча)
game = Партия { $game }: рассадку выбирает команда «{ $seating }», цвет — команда «{ $colours }»
pending = выбор ещё не сделан (срок { $due })
board = Доска { $board }
white = белые
black = чёрные
result-won = Результат: победила команда «{ $team }»
result-drawn = Результат: ничья
