# Слова терминального клиента по-русски (Project Fluent). Набор id — как в en.ftl; это проверяет тест.
# Слова игры — как в русских правилах МГИМО-2017: шведские шахматы, мат на доске, снятие,
# выставление, запас, рассадка, накрест, флаг, невозможный ход, заигранный ход.
# Номера правил (E1, P3 …), поля, записи ходов (SAN) и буквы фигур — обозначения: они не переводятся.

## Слова игры

seat-white-a = белые A
    .of = белых A
seat-black-a = чёрные A
    .of = чёрных A
seat-white-b = белые B
    .of = белых B
seat-black-b = чёрные B
    .of = чёрных B
team = команда { $n }
team-with-seats = команда { $n }: { $first } + { $second }
kind-guest = (гость)
kind-bot = (бот)
you-mark = (вы)
seat-empty = (свободно)
piece-pawn = пешка
    .of = пешки
piece-knight = конь
    .of = коня
piece-bishop = слон
    .of = слона
piece-rook = ладья
    .of = ладьи
piece-queen = ферзь
    .of = ферзя
piece-king = король
    .of = короля
phase-forming = сбор
phase-countdown = отсчёт
phase-running = идёт
phase-paused = пауза
phase-ended = окончен
phase-annulled = аннулирован
moves-count = { $n ->
    [one] { $n } ход
    [few] { $n } хода
   *[many] { $n } ходов
}
games-count = { $n ->
    [one] { $n } партия
    [few] { $n } партии
   *[many] { $n } партий
}
clock-tenths = { $seconds },{ $tenths }
datetime = { $day }.{ $month }.{ $year } { $hour }:{ $minute } UTC
category-bullet = пуля
category-blitz = блиц
category-rapid = рапид

## Правила (docs/RULES.md) по номерам: что называет отказ или результат

rule-with-id = { $title } ({ $rule })
rule-FIDE = по шахматным правилам так ходить нельзя
rule-S1 = рассадка: место занято или места уже закреплены
rule-S2 = игрок накрест
rule-S3 = рассадка и цвета в турнирной партии
rule-S4 = запасы видны всем
rule-C1 = взятая фигура уходит партнёру
rule-C2 = фигуры не появляются и не пропадают
rule-P1 = выставление: фигура из своего запаса на пустое поле, не оставляя короля под шахом
rule-P2 = на эту горизонталь пешку выставлять нельзя
rule-P3 = выставление с матом на доске запрещено
rule-P4 = выставленная пешка — как «родная»
rule-P5 = рокировка с выставленной ладьёй
rule-R1 = проведение пешки — со снятием: укажите коня, слона, ладью или ферзя игрока накрест
rule-R2 = куда уходят проведённая пешка и взятая фигура
rule-R3 = снятие оставит на другой доске невозможную позицию
rule-R4 = без снятия пешку можно провести, только если снять нечего
rule-R5 = снятая фигура — обычная фигура
rule-R6 = проведение пешки: со снятием или с превращением
rule-R7 = на указанном поле нет такой фигуры для снятия
rule-M1 = мат на доске
rule-M2 = шах, а закрыться нечем: ждать фигуру
rule-M3 = нет ходов
rule-M4 = короля брать нельзя
rule-E1 = мат на доске
rule-E2 = мат на доске у обеих команд
rule-E3 = ничья по соглашению
rule-E4 = троекратное повторение позиции
rule-E5 = правило 50 ходов
rule-E6 = флаг считается, только если нет мата на доске
rule-E7 = флаг: время истекло
rule-E8 = ничья на одной доске и флаг на другой
rule-E9 = мат на доске важнее ничьей, ничья важнее флага
rule-E10 = сдача
rule-K1 = сейчас не ваш ход
rule-K2 = контроль времени
rule-K3 = поправка на задержку связи
rule-K4 = флаг: ваше время истекло
rule-K5 = часы остановлены для судьи
rule-K6 = после перезапуска партия не ждёт вечно
rule-A1 = невозможный ход
rule-A1a = король и ладья меняются местами («нижегородская рокировка»)
rule-A2 = решение судьи
rule-A3 = во время партии говорят только партнёры
rule-A4 = запись партии
rule-A5 = неправильная расстановка фигур
rule-A6 = подсказка со стороны

## Результаты

result-win = победила { $team }: { $why }
result-draw = ничья: { $why }
result-with-note = { $result }: «{ $note }»
result-also = { $result }; исход решили также { $rules }
result-leave = /lobby — выйти в лобби
match-over = матч окончен: { $result }
match-result-corrected = результат исправлен: { $result }
last-match = последний матч: { $result }
demo-result = результат: { $result }
demo-annulled = результат: матч аннулирован
demo-record = запись партии: { $path }

## Отказы — по кодам сервера

error-bad-request = сервер не понял запрос
error-rejected = отказано: { $why }
error-handshake = сеанс открыт неправильно
error-no-such-match = такого матча нет
error-not-in-match = для этого нужно смотреть матч или сидеть в нём
error-rate-limited = слишком много запросов: помедленнее
error-full = сервер переполнен (матчи или соединения): попробуйте позже
error-forbidden = вам это делать нельзя
error-too-large = ответ слишком велик для одного сообщения
error-unavailable = сервер сейчас не может это сделать (хранилище не принимает записи): попробуйте позже
error-bad-credentials = неверное имя или пароль
error-name-taken = это имя уже зарегистрировано: выберите другое или войдите
error-login-required = для этого нужно войти в учётную запись
error-account-disabled = эта учётная запись отключена
error-no-such-account = такой учётной записи нет
error-not-ratable = место в рейтинговом матче — только для учётных записей: не для гостя и не для бота
error-unencrypted = пароль или секрет судьи нельзя передавать по сети незашифрованным: подключитесь к серверу по адресу https:// (или попросите администратора включить HTTPS)
error-storage-full = на диске сервера нет места: это не сохранено (ход не сделан); матч приостановлен, пока администратор сервера не освободит место, затем продолжится сам
error-no-such-seek = такого поиска нет: он закончился или партия уже найдена
limit-matches = на сервере уже столько матчей, сколько он может держать
limit-open-matches = вы уже создали столько открытых матчей, сколько можно
limit-chat-length = сообщение слишком длинное: не больше { $max } { $max ->
    [one] символа
   *[other] символов
}
limit-bots = сервер уже запустил столько ботов, сколько может
limit-login-attempts = слишком много неудачных входов с вашего адреса: подождите и попробуйте снова
limit-seeks = вы уже участвуете в стольких поисках, сколько можно
limit-seek-pool = на сервере уже столько поисков игры, сколько он может держать
limit-registrations = с вашего адреса за этот час зарегистрировано слишком много учётных записей
limit-tournament-teams = сервер ведёт турниры не больше чем из { $max } { $max ->
    [one] команды
   *[other] команд
}
limit-analyses = движок сервера занят: спросите ещё раз чуть позже
limit-connections = на сервере предельное число соединений: попробуйте позже
limit-connections-per-address = с вашего адреса открыто предельное число соединений: закройте одно или попробуйте позже
tour-game = тур { $round }, стол { $table }, партия { $game }
choice-seating = рассадка
choice-colours = цвета
tour-no-such-tournament = такого турнира нет
tour-invalid-name = название должно быть от 1 до { $max } { $max ->
    [one] символа
   *[other] символов
}, без управляющих символов
tour-same-player-twice = в команде должны быть два разных игрока
tour-duplicate-team-name = команда с таким названием уже есть
tour-too-many-teams = в турнире может быть не больше { $max } { $max ->
    [one] команды
   *[other] команд
}
tour-bad-seeding = посев должен назвать каждую зарегистрированную команду ровно один раз
tour-no-swiss-rounds = в швейцарской системе нужен хотя бы один тур
tour-already-started = турнир уже начался
tour-not-started = турнир ещё не начался
tour-too-few-teams = слишком мало команд в игре: { $active } (нужно хотя бы 2)
tour-unknown-team = нет команды с номером { $team }
tour-already-withdrawn = команда { $team } уже выбыла
tour-round-incomplete = в туре { $round } ещё есть партии без результата
tour-no-rounds-left = жеребьёвка уже проведена для всех туров ({ $rounds })
tour-unknown-round = нет тура { $round }
tour-unknown-table = в туре { $round } нет стола { $table }
tour-unknown-game = во встрече только партии 1 и 2, партии { $game } нет
tour-bye = стол { $table } тура { $round } — свободный: партий нет
tour-not-paired = у команды { $team } нет пары в туре { $round }
tour-not-a-member = вы не играете ни за одну команду этого турнира
tour-not-your-choice = выбор «{ $choice }» делает другая команда ({ $game }; S3)
tour-deadline-passed = срок выбора истёк { $time } ({ $game }): действует выбор по умолчанию (S3)
tour-game-started = партия уже началась или у неё есть результат ({ $game })
tour-already-chosen = выбор «{ $choice }» уже сделан, он окончательный ({ $game }; S3)
tour-choices-pending = места в партии ещё не известны: не сделан выбор ({ $game })
tour-already-decided = у партии уже есть результат, исправить его может директор турнира ({ $game })
tour-not-decided = у партии нет результата, исправлять нечего ({ $game })
tour-game-in-play = { $game } ещё идёт (партия { $id }): чтобы закончить её этим результатом, подтвердите (--end-game)
tour-played-online = { $game } сыграна на сервере: её результат — результат партии, его исправляют, а не снимают
tour-game-two-started = { $game }: вторая партия пары уже началась, результат первой остаётся
tour-registration-closed = регистрация закрыта: записать команду теперь может только директор турнира
tour-already-in-team = вы уже в команде или ждёте ответа на своё приглашение
tour-no-invitation = такого приглашения нет
tour-check-in-not-required = в этом турнире не нужно подтверждать участие перед туром
tour-not-a-swiss = число туров задаётся только в швейцарской системе
tour-not-in-field = команда { $team } не играет в этом туре (выбыла или не подтвердила участие)
tour-placed-twice = команда { $team } поставлена дважды или против самой себя
session-refused = сервер отказал в сеансе: { $detail }
session-open-failed = не удалось открыть сеанс с { $server }: { $detail }
session-open-hint = без --fingerprint сертификат сервера должен быть действителен для его имени в общей инфраструктуре ключей (web PKI); сервер со своим сертификатом при запуске печатает его отпечаток (строка `certificate sha256 …`): укажите его в --fingerprint
password-prompt = пароль { $name }:{" "}
connection-failed = соединение: { $detail }
protocol-failed = ответ сервера не по протоколу: { $detail }
move-impossible = невозможный ход { $san } на доске { $board }: { $why }
move-refused = ход { $san } на доске { $board } отклонён: { $why }
bots-forbidden = заполнить матч ботами может только его создатель или игрок, сидящий в нём
bots-not-ratable = у ботов сервера нет учётных записей: в рейтинговом матче они играть не могут

## Паузы сервера, конец сеанса и поиска, закрытый матч

clocks-stopped = часы остановлены: { $reason }
clocks-resumed = часы снова идут
pause-restart = сервер перезапустился; часы пойдут, когда вернутся все четверо
bot-missing-max-bots = бот сервера на месте { $seat } не смог вернуться после перезапуска: сервер уже запустил столько ботов, сколько может (max_bots); его часы пойдут, когда ожидание истечёт (K6)
bot-missing-failed = бот сервера на месте { $seat } не смог вернуться после перезапуска; его часы пойдут, когда ожидание истечёт (K6)
restart-wait = сервер перезапустился: часы ждут всех четверых ещё не больше { $time }, потом пойдут с теми, кто здесь (K6)
pause-shutdown = сервер выключается
pause-storage = сервер сейчас не может сохранять ходы; часы пойдут, когда сможет
session-logged-out = из сеанса вышли; войдите снова
session-password-changed = пароль учётной записи изменён; войдите снова
session-account-disabled = учётная запись отключена
seek-end-cancelled = ваш поиск отменён
seek-end-disconnected = поиск закончился: у одного из игроков пропало соединение
seek-end-declined = партнёр отказался
seek-end-expired = партнёр не ответил вовремя
seek-end-failed = найденный матч не удалось создать; ищите снова
match-closed-expired = матч { $id } закрыт: никого из игроков не было на месте
match-closed-failed = матч { $id } остановлен на сервере; он восстановится, когда сервер перезапустится
match-closed-taken-over = матч { $id }: ваше место занял другой сеанс вашей учётной записи (другое устройство); отсюда ходить больше нельзя
match-elsewhere-lease-lost = матч { $id } переходит на другой узел (этот потерял связь с базой данных): переподключение, ничего не потеряно

## События матча

seat-taken = { $name } садится за доску: { $seat }
seat-taken-bot = за доску садится бот: { $seat } — { $name }
seat-left = освободилось место: { $seat }
arbiter-called = { $seat }: часы остановлены, вызван судья (K5)
arbiter-called-replay = { $seat }: часы остановлены, судью просят о переигровке: { $reason }
arbiter-why = /arbiter — позвать судью; /arbiter setup, /arbiter hint или /arbiter other — попросить его о переигровке
arbiter-words = судья: { $text }
arbiter-paused = судья остановил часы
arbiter-resumed = судья снова пустил часы
arbiter-clock = судья изменил время: { $seat } { $delta }
arbiter-take-back = судья отменил последний ход на доске { $board }
arbiter-position = судья исправил позицию
arbiter-declared-win = судья объявил результат: победила { $team } ({ $reason })
arbiter-declared-draw = судья объявил результат: ничья ({ $reason })
arbiter-annulled = судья аннулировал матч: { $reason }
arbiter-replayed = судья назначил переигровку: { $reason }; партия начинается заново
arbiter-replayed-note = судья назначил переигровку: { $reason } ({ $note }); партия начинается заново
arbiter-done = сделано: { $act } (матч { $id })
arbiter-bad-seat = место «{ $text }»: ожидается белые-A, чёрные-A, белые-B или чёрные-B
replay-wrong-setup = неправильная расстановка фигур (A5)
replay-outside-hint = подсказка со стороны (A6)
replay-other = другая причина (A2)
draw-declined = { $seat }: ничья отклонена
match-found = матч { $id } найден{ $rated ->
    [yes] {" "}(рейтинговый)
   *[no] {""}
}: ваше место — { $seat }

## Быстрые сообщения партнёру (по сети идут по-английски; каждый видит на своём языке)

quick-need-knight = нужен конь
quick-need-bishop = нужен слон
quick-need-rook = нужна ладья
quick-need-queen = нужен ферзь
quick-need-pawn = нужна пешка
quick-sit = сиди, не ходи
quick-go = ходи
quick-no-trade = не меняйся

## Рейтинги

rating-change = { $category } { $name }: { $seat } { $before } → { $after } ({ $diff })
leaderboard-title = рейтинг-лист: { $category } ({ $n ->
    [one] { $n } игрок
    [few] { $n } игрока
   *[many] { $n } игроков
})
profile-summary = { $name }: { $categories ->
    [one] { $categories } рейтинговая категория
    [few] { $categories } рейтинговые категории
   *[many] { $categories } рейтинговых категорий
}, { $recent ->
    [one] { $recent } недавний матч
    [few] { $recent } недавних матча
   *[many] { $recent } недавних матчей
}
profile-category = {"  "}{ $category } { $rating } ±{ $deviation }, { $games ->
    [one] { $games } партия
    [few] { $games } партии
   *[many] { $games } партий
}; последние: { $last }
profile-recent = {"  "}матч { $id } ({ $rules } { $clock }): команда 1 ({ $team1 }) против команды 2 ({ $team2 }): { $result }
profile-partner = {"    "}с партнёром { $name }: пара { $rating }, { $games ->
    [one] { $games } партия
    [few] { $games } партии
   *[many] { $games } партий
}

## Поиск игры

seek-started = ищем партию { $clock }; x (или /cancel) — отменить
seek-your-partner = ваш партнёр
seek-a-player = игрок
seek-waiting-partner = ждём, пока { $partner } примет приглашение: { $rated ->
    [yes] рейтинговая партия
   *[no] партия без рейтинга
} { $clock } (осталось { $left }) · x — отмена
seek-seeking = поиск: { $rated ->
    [yes] рейтинговая партия
   *[no] партия без рейтинга
} { $clock } · ждём { $waited } · рейтинг ±{ $reach } · x — отмена
seek-seeking-together = поиск вдвоём ({ $players }): { $rated ->
    [yes] рейтинговая партия
   *[no] партия без рейтинга
} { $clock } · ждём { $waited } · рейтинг ±{ $reach } · x — отмена
seek-invited = { $from } зовёт вас в пару: { $rated ->
    [yes] рейтинговая партия
   *[no] партия без рейтинга
} { $clock } (осталось { $left }) · /accept — принять, /refuse — отказаться
seek-invitation = { $from } зовёт вас в пару на партию { $clock }: /accept — принять, /refuse — отказаться
seek-partner-accepted = партнёр согласился: ищем партию { $clock } вдвоём
seek-already = вы уже ищете партию { $clock }: x — отменить поиск
seek-none = вы не ищете партию
seek-cancelled = поиск отменён
seek-ended-connection = поиск закончился вместе с соединением: начните снова

## Реванш

rematch-made = реванш: матч { $id }, на каждой доске цвета поменялись
rematch-declined = реванша в матче { $id } не будет: { $n ->
    [one] отказывается
   *[other] отказываются
} { $names }
rematch-wait-others = ждём остальных
rematch-how = /rematch — согласиться, /norematch — отказаться
rematch-nobody = пока никто не согласился
rematch-accepted = { $n } из 4 { $n ->
    [one] согласился
   *[other] согласились
} ({ $names })
rematch-status = реванш в матче { $id }: { $who }; { $next }
rematch-offer = /rematch — сыграть ещё раз (на каждой доске цвета поменяются), /norematch — отказаться
rematch-not-yet = о реванше договариваются, когда матч окончен

## Экран

link-connected-to = соединение с { $server }
link-connected = на связи
link-reconnecting = связь потеряна — переподключение (попытка { $attempt })
link-ended = сеанс завершён
lobby = лобби
lobby-match = матч
lobby-rules = правила
lobby-clock = время
lobby-phase = стадия
lobby-empty = открытых матчей нет: c — создать матч, F1–F4 — найти партию
lobby-your-match = ваша партия { $id } идёт: вы — { $seat }; выберите её и нажмите Enter, чтобы вернуться
lobby-keys = ↑↓ — выбрать матч · Enter или w — смотреть · 1–4 — сесть: белые A, чёрные A, белые B, чёрные B · c — создать матч · F1–F4 — найти партию · r — обновить · /help — справка · q — выход
match-number = матч { $id }
you-play = ваше место: { $seat }
you-play-team = ваше место: { $seat } ({ $team })
watching = вы зритель
board-title = Доска { $board }
board-title-last = Доска { $board } · последний ход: { $seat } { $san }
board-title-last-short = Доска { $board } · { $san }
flag-fell = флаг
ready = готов
not-ready = не готов
reserve = запас: { $pieces }
reserve-empty = запас: —
annulled = матч аннулирован судьёй
draw-offered = { $seat } предлагают ничью: /draw — согласиться, /decline — отклонить
ready-prompt = нажмите Enter (или /ready), когда будете готовы начать
paused-for-arbiter = часы остановлены для судьи
promotion-prompt = снятие: нажмите номер фигуры, которую снять (номера — на другой доске)
messages = сообщения
messages-back = сообщения (назад на { $n ->
    [one] { $n } строку
    [few] { $n } строки
   *[many] { $n } строк
} · PgDn)
chat-team = команде
chat-all = всем
hint-lobby = { $pools } — поиск · ↑↓ — выбор · Enter — смотреть · 1–4 — сесть · c — создать · r — обновить · q — выход
hint-lobby-short = F1–F4 — поиск · Enter — смотреть · 1–4 — сесть · c — создать · q — выход
hint-match = ход + Enter · F1–F8 — быстрые сообщения · /help · Ctrl-C — выход
hint-watch = вы зритель · /lobby — в лобби · /help · Ctrl-C — выход
hint-help-only = /help — справка · Ctrl-C — выход
hint-help = Esc — закрыть справку · PgUp PgDn — листать
help-title = справка

## Что сообщается игроку

welcome = добро пожаловать: F1–F4 — найти партию в быстром пуле; или выберите матч ↑↓ и нажмите 1–4, чтобы сесть, или c — создать матч; /help — справка
connection-lost = связь потеряна: { $detail }
reconnected = связь восстановлена: сеанс продолжается
reconnected-to = связь восстановлена с { $server }: сеанс продолжается
reconnect-failed = переподключиться не удалось: { $detail }
not-connected = нет связи: дождитесь переподключения
match-created = матч { $id } создан: нажмите 1–4, чтобы сесть
match-cannot-show = этот матч не удаётся показать: { $detail }
bots-coming = боты уровня { $level } занимают свободные места в матче { $id }
choice-taken = выбор принят
tournament-over = турнир { $id } окончен
tournament-no-game = сейчас вашей партии нет; попробуйте снова после жеребьёвки тура
promotion-cancelled = проведение пешки отменено
promotion-which = какую фигуру снять? нажмите её номер (Esc — отмена)
promotion-choice = {"  "}{ $n }) { $piece } { $square }
unknown-input = непонятный ввод «{ $text }»: наберите /help
unknown-command = неизвестная команда /{ $verb }: наберите /help
watching-cannot-move = вы зритель; чтобы играть, сядьте за доску
bots-which-match = какой матч? выберите его в лобби или сядьте в нём
bots-which-level = боты какого уровня? от /bots 1 до /bots 5
resign-confirm = сдать матч за всю команду? наберите /resign ещё раз, чтобы подтвердить
claim-what = что требуете? /claim rep (повторение), /claim 50 (50 ходов) или /claim flag black-A (флаг)
need-what = что нужно? /need n, b, r, q или p (конь, слон, ладья, ферзь, пешка)
choose-what = какой выбор? /choose ТУРНИР ТУР ПАРТИЯ straight|crossed|white-a|white-b
mygame-which = какой турнир? /mygame ТУРНИР
partner-not-yet = /partner — сыграть снова с тем же партнёром, когда ваш матч окончен
invitation-none = вас никто не звал в пару
lang-set = язык: русский
lang-what = какой язык? /lang ru или /lang en
lang-not-saved = выбор языка не удалось запомнить в { $path }: { $detail }

## /help

help-moves = ходы: e4, Nf3, N@f3 (выставление), e8=Qd1 (проведение пешки со снятием) или e8 и затем выбор снимаемой фигуры; Enter — отправить
help-pieces = фигуры обозначены латинскими буквами, как в записи ходов: K король, Q ферзь, R ладья, B слон, N конь, P пешка (белые — заглавные, чёрные — строчные)
help-match = /ready /unready /leave · /draw (предложить или принять ничью) /decline · /claim rep|50|flag МЕСТО (white-A … black-B)
help-resign = /resign (дважды: переспросит) · /arbiter [setup|hint|other] — позвать судью · /t ТЕКСТ — команде · /say ТЕКСТ — всем · /need n|b|r|q|p
help-rematch = /rematch или /norematch после матча: если согласны все четверо — тот же матч, цвета на каждой доске меняются
help-keys = F1–F5 — нужен конь, слон, ладья, ферзь, пешка · F6 — сиди · F7 — ходи · F8 — не меняйся · /lobby · /quit (Ctrl-C)
help-lobby = лобби: ↑↓ — выбрать · Enter или w — смотреть · 1–4 — сесть: белые A, чёрные A, белые B, чёрные B · c — создать
help-create = /create [mgimo-2017|classic] [ВРЕМЯ] [960] [rated] — создать матч; 960 — начальная позиция Chess960; rated — рейтинговый, только для учётных записей
help-bots = /bots [УРОВЕНЬ] — посадить ботов сервера на свободные места, уровень 1–5 (по умолчанию 2): может создатель матча или игрок, сидящий в нём, до начала и только в нерейтинговом матче; в лобби — в выбранный матч
help-ratings = /top [bullet|blitz|rapid] — рейтинг-лист · /profile [ИМЯ] — рейтинги игрока, его партнёры и матчи
help-seek-quick = поиск партии: F1–F4 в лобби — быстрые пулы (без рейтинга) · x или /cancel — отменить
help-seek = /seek [ВРЕМЯ] [rated] [with ИМЯ] — искать партию (с приглашённым партнёром) · /accept /refuse — ответ на приглашение · /partner — после матча
help-tournaments = турниры: /mygame Т — сесть за свою партию · /choose Т ТУР ПАРТИЯ straight|crossed|white-a|white-b — рассадка (прямо, накрест) и цвета
help-lang = /lang ru или /lang en — язык; выбор запоминается (флаг --lang его перекрывает)
help-scroll = PgUp PgDn — листать сообщения

## Отказы матча (протокол 9), без номера правила (он добавляется после)

match-not-seated = у вас нет места в этом матче
match-seat-taken = место занято: { $seat }
match-already-seated = вы уже сидите на этом месте: { $seat }
match-seats-locked = места закреплены: все четверо готовы
match-not-started = матч ещё не начался
match-paused = часы остановлены для судьи
match-not-paused = матч не остановлен
match-over-already = матч окончен
match-not-your-board = ваше место — { $seat }, а не на доске { $board }
match-not-your-turn = сейчас не ваш ход
match-flag-fell = у { $seat_of } упал флаг: время истекло
match-already-offered = ваше предложение ничьей уже сделано
match-no-draw-offer = нет предложения ничьей, которое можно отклонить
match-illegal = невозможный ход на доске { $board }: { $why }
match-unreadable = ход на доске { $board } не прочитан: { $why }
match-no-arbiter = на этом сервере нет судьи, которого можно позвать; часы идут
illegal-in-check = по шахматным правилам так ходить нельзя: ваш король под шахом
illegal-not-in-reserve = в запасе { $seat_of } нет { $piece_of }
illegal-occupied = поле { $square } занято
illegal-drop-leaves-check = после выставления ваш король остаётся под шахом
illegal-pawn-rank = пешку можно выставлять только на горизонтали с { $first } по { $last }
illegal-not-removable = на поле { $square } доски { $board } нет коня, слона, ладьи или ферзя игрока накрест ({ $crosswise })
illegal-removal-leaves-illegal = снятие фигуры ({ $piece }, { $square }) оставит на доске { $board } невозможную позицию
illegal-must-remove = у игрока накрест ({ $crosswise }) есть что снять: укажите фигуру (e8=Qd1)
illegal-vanishing-leaves-check = пешка уходит с доски и открывает вашего короля
illegal-wrong-piece = на поле { $square } доски { $board } стоит другая фигура: { $piece }
text-not-a-move = это не ход: пишите e2e4, Nf3 или N@f3
text-removal-square-missing = при проведении пешки со снятием укажите поле снимаемой фигуры: e8=Qd1
text-square-after-move = полем заканчивается только проведение пешки со снятием
text-ambiguous = подходят несколько ходов: укажите поле, откуда ходит фигура
claim-repetition = позиция на доске { $board } встречалась { $seen } { $seen ->
    [one] раз
    [few] раза
   *[many] раз
}; нужно { $needed }
claim-fifty-moves = на доске { $board } { $halfmoves } { $halfmoves ->
    [one] полуход
    [few] полухода
   *[many] полуходов
} без взятия, хода пешки или выставления; нужно { $needed }
claim-flags-fall-by-themselves = в этом матче флаг падает сам
claim-own-team-flag = флаг { $seat_of } может заявить только игрок другой команды
claim-flag-not-fallen = флаг { $seat_of } не упал
take-back-no-move = на доске { $board } нет хода, который можно отменить
take-back-changed-since = фигуры на доске { $board } с тех пор изменились: установите исправленную позицию
take-back-piece-dropped = фигура ({ $piece }), переданная на доску { $board }, уже выставлена
take-back-square-occupied = поле { $square } доски { $board } занято: снятая фигура ({ $piece }) не может вернуться
take-back-would-be-illegal = позиция на доске { $board } стала бы невозможной
position-unreadable = это невозможная позиция по правилам матча
position-units = у стороны «{ $colour }» стало бы { $would } вместо { $was }: фигуры не появляются и не пропадают
colour-white = белые
colour-black = чёрные
move-unreadable-why = не удалось прочитать ход { $san } на доске { $board }: { $why }

## Ошибки ввода, отказ в сеансе, отказы по состоянию (протокол 9)

invalid-time-control = такой контроль времени сервер не знает (3+2, blitz …)
invalid-rule-preset = таких правил нет (mgimo-2017, classic)
invalid-bot-level = уровень бота — от { $min } до { $max }
invalid-same-partner = партнёр должен быть другим игроком
invalid-account-name = имя учётной записи: от { $min } до { $max } латинских букв, цифр, _ или -, начинается с буквы
invalid-password = пароль: от { $min } до { $max } символов
invalid-guest-name = имя: не больше { $max } { $max ->
    [one] символа
   *[other] символов
}, без невидимых и без ★ (знак ботов сервера)
invalid-chat-text = в сообщении нужен текст без невидимых символов
invalid-note-length = не больше { $max } { $max ->
    [one] символа
   *[other] символов
}
invalid-rating-category = такой рейтинговой категории нет (bullet, blitz, rapid)
invalid-bot-too-late = бот должен назваться ботом до того, как следить за матчем
invalid-position = позиция не читается (BFEN: обе доски и запасы)
invalid-record = текст не запись BPGN или в нём нет такой партии
invalid-record-at = текст перестаёт читаться как BPGN в строке { $line }, столбец { $column }
invalid-no-such-game = в тексте { $games ->
    [one] { $games } партия
    [few] { $games } партии
   *[many] { $games } партий
}: такой партии нет
session-not-hello = сеанс не открылся
session-unknown-token = сеанс неизвестен: начинается новый
session-expired = сеансом не пользовались { $days } { $days ->
    [one] день
    [few] дня
   *[many] дней
}: начинается новый
session-name-registered = это имя принадлежит учётной записи: войдите или возьмите другое имя
session-too-many-guests = с вашего адреса открыто слишком много гостевых сеансов: войдите или попробуйте позже
session-connection-lost = соединение потеряно, пока открывался сеанс
busy-started = матч уже начался: все места заняты
busy-playing = вы сидите в идущем матче: сначала доиграйте его (или встаньте с места)
busy-already-seeking = один из игроков этого поиска уже ищет партию: сначала отмените тот поиск
busy-partner-seeking = ваш партнёр уже ищет партию
busy-not-over = матч не окончен: реванш пока нельзя
busy-rematch-declined = от реванша отказались
busy-reserved = места в этой партии закреплены за её игроками: боты их не занимают
official-arbiter = судья
official-director = директор турнира
official-needed = это может только { $role }: войдите под учётной записью с этой ролью или предъявите её секрет
official-wrong-secret = это не секрет роли «{ $role }», или на сервере его нет
official-secret-differs = узел, к которому вы подключены, принял ваш секрет роли «{ $role }», но узел, на котором идёт этот матч, настроен с другим `{ $key }` (или без него): всем узлам кластера нужен один и тот же (docs/operators.md, Secrets); до тех пор войдите под учётной записью с этой ролью

## Чем закончился матч (протокол 9)

cause-mate-on-board = { $seat } поставили мат на доске
cause-mutual-mate = мат на доске от обеих команд
cause-draw-agreement = по соглашению на доске { $board }
cause-draw-repetition = троекратное повторение позиции на доске { $board }
cause-draw-fifty-moves = 50 ходов без взятия, хода пешки или выставления на доске { $board }
cause-draw-stalemate = на доске { $board } нет ходов и не может появиться
cause-draw-arbiter = по решению судьи на доске { $board }
cause-flag = у { $seat_of } упал флаг
cause-flags-of-both-teams = упали флаги обеих команд
cause-resignation = { $seat } сдались
cause-arbiter = решение судьи

## shvedka arbiter explain: почему матч закончился так
explain-result-win = результат: победила { $team } ({ $rule })
explain-result-draw = результат: ничья ({ $rule })
explain-no-result = у записи ещё нет результата
explain-nothing = в записи нет ничего, что закончило бы матч
explain-mate = { $at } { $by }: { $seat } получают мат на доске (M1)
explain-flag = { $at } у { $seat } упал флаг (K4)
explain-resigned = { $at } { $seat } сдались (E10)
explain-draw = { $at } на доске { $board } ничья ({ $why }); внутри окна флага, учитывается при его закрытии
explain-flag-credit = { $at } { $by }: компенсация задержки связи ({ $credit } с) вернула ход { $seat } в пределы времени; флаг снят (K3)
explain-flag-arbiter = { $at } { $who } добавил время: { $seat }; флаг снят (A2)
explain-declared-win = { $at } { $who } объявил результат: победила { $team }: { $note } (A2)
explain-declared-draw = { $at } { $who } объявил результат: ничья: { $note } (A2)
explain-annulled = { $at } { $who } аннулировал матч: { $note } (A2)
explain-ended = { $at } матч окончен
explain-in-window = { $line } · внутри окна флага (K4)
explain-weigh-mate-flag = решение: мат на доске засчитывается, флаг в том же окне — нет (E6, E9)
explain-weigh-mate-draw = решение: мат на доске сильнее ничьей в том же окне (E9)
explain-weigh-mates = решение: маты на доске у обеих команд в одном окне — ничья (E2, E9)
explain-weigh-draw-flag = решение: ничья сильнее флага в том же окне (E8, E9)
explain-weigh-flags-both = решение: флаги у обеих команд — ничья (E7)
explain-weigh-flags-one = решение: флаги у одной команды — её поражение (E7)
explain-rules = что решило исход: { $rules }
explain-who-arbiter = судья
explain-who-secret = судья (по общему секрету)
explain-who-server = сервер
explain-who-named = судья { $name }

## shvedka arbiter check-record: невозможные ходы записи (A1)
check-clean = невозможных ходов нет
check-found = найден невозможный ход
check-impossible = { $label }: тип { $kind } ({ $rule }): { $reason }; { $consequence }; если замечено позже: { $later }
check-type1-loses = команде { $seat } засчитывается поражение в партии (A1)
check-type2-taken-back = ход возвращается, { $team } получает по минуте на часы обоих своих игроков (A1)
check-later-stands = ход остаётся в силе, позиция после него законна (A1)
check-later-legal-again = ход остаётся в силе, позиция снова законна после { $label } (A1)
check-later-arbiter = решает судья: { $why } (A1)
check-unreadable = { $label }: проверить нельзя: { $why }

## shvedka arbiter show: запись в заданный момент
show-after-start = после хода 0 (начало)
show-after-move = после хода { $n } ({ $label })
show-at = в момент { $time }
show-end = конец записи
show-moves-made = сделано ходов: { $n } из { $total }, последний { $last }
show-no-moves-made = сделано ходов: 0 из { $total }
show-impossible = невозможный ход { $label }: { $why }; показан так, как был сделан (A1)
show-note = примечание после { $label }: { $text }
show-act-failed = {"  "}его нельзя воспроизвести: { $why }
show-act-at = { $at }: { $what }
show-act = действие: { $what }
show-act-played = { $label } был сделан, затем взят назад или аннулирован
show-act-takeback = { $who } вернул последний ход на доске { $board } (A2)
show-act-added = { $who } добавил { $amount } на часы { $seat } (A2)
show-act-removed = { $who } снял { $amount } с часов { $seat } (A2)
show-act-position = { $who } установил позицию { $position } (A2)
show-act-pause = { $who } остановил часы (A2)
show-act-pause-server = сервер остановил часы (перезапуск, остановка или передача матча другому узлу, K6; или его хранилище)
show-act-resume = { $who } пустил часы
show-act-flag = у { $seat } упал флаг (K4)
show-act-resign = { $seat } сдались (E10)
show-act-draw = на доске { $board } ничья ({ $why }) внутри окна флага: учитывается при его закрытии (K4)
draw-agreed = по соглашению, E3
draw-repetition = повторение позиции, E4
draw-move-rule = правило 50 ходов, E5
draw-stalemate = пат, M3
show-act-call = { $seat }: часы остановлены, вызван судья (K5)
show-act-call-replay = { $seat }: часы остановлены, судью просят о переигровке ({ $rule })
show-act-replay = { $who } назначил переигровку с начала ({ $rule })
show-act-replay-note = { $who } назначил переигровку с начала ({ $rule }): { $note }
show-act-start = часы пущены
show-act-result = { $who } объявил результат { $result } (A2)
show-act-result-note = { $who } объявил результат { $result } (A2): { $note }
show-act-annul = { $who } аннулировал матч (A2)
show-act-annul-note = { $who } аннулировал матч (A2): { $note }
show-act-end = матч окончен
show-act-end-why = матч окончен: { $why }
show-time = время матча: { $time }
show-time-mate = время матча: { $time } (часы стоят с { $at }: мат на доске, E1)
show-time-ended = время матча: { $time } (часы стоят с { $at }: матч окончен)
show-time-paused = время матча: { $time } (часы стоят с { $at }: остановка, K5)
show-time-unknown = время матча неизвестно ({ $why }); часы — как записаны последними
show-untimed-no-base = тег TimeControl ({ $tc }) не даёт основного времени
show-untimed-no-clock = у хода { $label } нет комментария с часами
show-untimed-incomplete = времена в записи неполны
show-at-needs-times = { $file }: для --at нужны комментарии с часами у каждого хода и основное время: { $why }; используйте --after-move N
show-board = доска { $board }: ходят { $seat }, мат на доске: нет
show-board-mated = доска { $board }: ходят { $seat }, мат на доске: да, мат получают { $seat } (M1)
show-seat-player = { $seat } ({ $player })
show-seat = { $who }: часы { $clock }{ $state }, запас { $reserve }
show-clock-running = {" "}идут
show-clock-fallen = , флаг упал

## Что не так в записи (check-record, show): цвет приходит кодом, white или black
wrong-any-piece = фигуры
wrong-out-of-turn = ход не в очередь: на доске { $board } ход { $side ->
        [white] белых
       *[black] чёрных
    }
wrong-captures-king = он берёт короля { $side ->
        [white] белых
       *[black] чёрных
    } на { $square }: короля не берут
wrong-dropped-rook-castles = по этим правилам с выставленной ладьёй рокироваться нельзя
wrong-takes-new-piece = при превращении снимается фигура { $crosswise_of } с доски { $board }; новую фигуру ({ $piece }) брать нельзя
wrong-nothing-to-remove = у { $crosswise_of } снять нечего, поэтому пешка уходит с доски; стать фигурой ({ $piece }) она не может
wrong-upgrade-removes-nothing = по этим правилам пешка превращается без снятия; с другой доски ничего не снимается
wrong-castling = рокировка здесь невозможна
wrong-castling-why = рокировка здесь невозможна: { $why }
castling-king-moved = король { $side ->
        [white] белых
       *[black] чёрных
    } уже ходил
castling-no-rook = для { $written } у { $side ->
        [white] белых
       *[black] чёрных
    } нет ладьи: она ходила или её нет
castling-in-check = король { $side ->
        [white] белых
       *[black] чёрных
    } под шахом
castling-blocked = поле { $square } занято
castling-attacked = король прошёл бы или встал бы на поле { $square } под ударом { $side ->
        [white] белых
       *[black] чёрных
    }
wrong-must-promote = пешка, дошедшая до последней горизонтали, должна превратиться
wrong-vanishing-leaves-check = пешка уходит с доски (R4), и король { $side ->
        [white] белых
       *[black] чёрных
    } остаётся под шахом
wrong-king-rook-swap = король { $side ->
        [white] белых
       *[black] чёрных
    } с { $king } и ладья с { $rook } меняются местами («нижегородская рокировка»): в шахматах такого хода нет
wrong-no-such-piece = у { $side ->
        [white] белых
       *[black] чёрных
    } нет { $piece_of }
wrong-no-such-piece-on = у { $side ->
        [white] белых
       *[black] чёрных
    } нет { $piece_of } на { $square }
wrong-cannot-reach = ни одна фигура { $side ->
        [white] белых
       *[black] чёрных
    } ({ $piece }) не может { $capture ->
        [yes] взять на
       *[no] пойти на
    } { $square }
wrong-cannot-reach-any = ни одна фигура { $side ->
        [white] белых
       *[black] чёрных
    } не может { $capture ->
        [yes] взять на
       *[no] пойти на
    } { $square }
wrong-leaves-check = после него король { $side ->
        [white] белых
       *[black] чёрных
    } остаётся под шахом
wrong-unreadable = ход не читается как один ход
wrong-ambiguous = запись подходит к нескольким ходам
wrong-bad-position = его позиция не читается
stuck-out-of-turn = { $seat } сходили не в очередь; ходы не выстроить по порядку
stuck-drop-occupied = поле { $square } занято: выставить фигуру нельзя
stuck-from-outside = фигура ({ $piece }) взялась извне партии (C2)
stuck-castling = такую рокировку не выполнить
stuck-units = у { $side ->
        [white] белых
       *[black] чёрных
    } стало бы { $is } единиц вместо { $was } (C2)
stuck-nothing-on = на { $square } ничего нет
stuck-own-piece = на { $square } стоит фигура { $side ->
        [white] белых
       *[black] чёрных
    }
stuck-king-captured = взят король { $side ->
        [white] белых
       *[black] чёрных
    } на { $square } (M4)
stuck-nothing-to-take = на поле { $square } доски { $board } ничего нет
stuck-king-removed = короля с поля { $square } доски { $board } снять нельзя
stuck-not-crosswises = фигура на поле { $square } доски { $board } — не { $crosswise_of }
stuck-piece-not-there = названной в записи фигуры на доске нет
stuck-which-piece = по записи не понять, какая фигура ходила
broken-kings = королей { $side ->
        [white] белых
       *[black] чёрных
    } на доске: { $count }
broken-pawn-on-edge = пешка стоит на { $square }
broken-waiting-in-check = король { $side ->
        [white] белых
       *[black] чёрных
    } под шахом, а ход { $mover ->
        [white] белых
       *[black] чёрных
    }
undecided-stuck = { $why }; дальше запись не проверяется
undecided-at-stuck = на доске { $board } всё ещё незаконная позиция у хода { $label }, дальше которого запись не прочесть: { $now }
undecided-at-unreadable = на доске { $board } всё ещё незаконная позиция у хода { $label }, который не читается: { $now }
undecided-at-end = на доске { $board } и в конце записи незаконная позиция: { $now }
check-label-start = тег BFEN
check-label-act = действие после { $label }
check-label-act-start = действие до первого хода
notread-start = начальная позиция не читается

# Разбор сыгранного матча (`/review N`): его запись по шагам.
review-title = разбор матча { $id }
review-which-match = какой матч? /review N или выберите его в лобби
review-unreadable = матч { $id }: его запись не читается: { $detail }
review-no-game = матч { $id }: в записи нет партии
review-unplayable = матч { $id }: запись нельзя воспроизвести: { $detail }
review-nothing-yet = пока записаны только ходы
hint-review = ←→ ход · ↑↓ шаг (и действия судьи) · Home End · Esc — назад · /help
hint-review-short = ←→ ↑↓ Home End · Esc — назад
help-review = /review [N] — разбор записи сыгранного матча (открытого или выбранного в лобби): ←→ по ходу, ↑↓ по шагу с действиями судьи, Home End, Esc — назад; те же ходы, время матча и часы, что у `shvedka arbiter show`
review-offer = /review { $id } — разбор записи: каждый ход и действие судьи со временем матча
review-board-mated = Доска { $board } · мат
