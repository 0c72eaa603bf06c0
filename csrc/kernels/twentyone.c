/*
 * twentyone.c -- twenty-one rounds for one seat from a dealt-down shoe
 * (twentyone.h; the Python statement of the round is
 * harness.games.twentyone, its independent reference tests/twentyone_reference.py).
 */
#include <string.h>
#include "twentyone.h"

/* Point value of a rank code (000 第2 1-5-ロ: J, Q, K count 10; A = 1); 0 for no card. */
static const uint8_t VALUE[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 0, 0};

typedef struct hand {
    uint32_t hard;     /* total with aces as 1 */
    uint32_t aces;     /* aces held */
    uint32_t cards;
    uint32_t first, second;  /* the first two values (the two-card key) */
    uint32_t context;  /* 0 initial, 1 split, 2 split ace with its two cards */
    int32_t stake;     /* 1, or 2 doubled */
    uint32_t first_hand; /* the area's first hand: the initial one, and after a split the hand completed first */
    uint32_t third;    /* Pontoon: the third card's value (6-7-8, 7-7-7) */
    uint32_t suits;    /* Pontoon: a bit per suit the hand holds; first_suit, second_suit: its first two cards' */
    uint32_t first_suit, second_suit;
    uint32_t doubled;  /* Pontoon: doubled (its aces count 1, 000 第2 3-5-ロ-(1)) */
    uint32_t rescued;  /* Pontoon: the double stake withdrawn (3-7-ホ) */
} hand;

/* KERN_TW_MAX_HANDS hands, each doubled at most: every net fits the nets' range. */
_Static_assert(2 * KERN_TW_MAX_HANDS <= KERN_TW_MAX_STAKES, "net range");

static inline uint32_t best_total(uint32_t hard, uint32_t aces)
{
    return aces && hard + 10 <= 21 ? hard + 10 : hard;
}

static inline int soft(uint32_t hard, uint32_t aces)
{
    return aces && hard + 10 <= 21;
}

uint32_t kern_tw_cell(uint32_t context, uint32_t up, uint32_t can_split, uint32_t key)
{
    return kern_tw_cell_index(context, up, can_split, key);
}

/* A player hand's total: a doubled Pontoon hand counts its aces 1. */
static inline uint32_t hand_total(const hand *h)
{
    return h->doubled ? h->hard : best_total(h->hard, h->aces);
}

static inline uint32_t hand_key(const hand *h, uint32_t pontoon)
{
    if (h->cards == 2) {
        uint32_t a = h->first < h->second ? h->first : h->second;
        uint32_t b = h->first ^ h->second ^ a;
        return kern_tw_pair_key(a, b);
    }
    uint32_t more = pontoon ? 64 * ((h->cards < 7 ? h->cards : 7) - 3) : 0;
    return KERN_TW_PAIRS + (uint32_t)soft(h->hard, h->aces) * 32 + best_total(h->hard, h->aces) + more;
}

static inline void take(hand *h, uint32_t v, uint32_t suit)
{
    h->hard += v;
    h->aces += v == 1;
    h->cards++;
    h->suits |= suit;
    if (h->cards == 2) {
        h->second = v;
        h->second_suit = suit;
    } else if (h->cards == 3) {
        h->third = v;
    }
}

static inline void start(hand *h, uint32_t v, uint32_t suit, uint32_t context)
{
    h->hard = v;
    h->aces = v == 1;
    h->cards = 1;
    h->first = v;
    h->second = 0;
    h->third = 0;
    h->suits = h->first_suit = suit;
    h->second_suit = 0;
    h->doubled = h->rescued = 0;
    h->context = context;
    h->stake = 1;
    h->first_hand = 1;
}

/* Pontoon: the net in units of a winning 21 that is no pontoon (3-10-ニ, ホ). */
static inline int32_t pontoon_win(const kern_tw_rules *r, const hand *h)
{
    if (h->doubled) {
        return h->stake * KERN_TW_DEN;                   /* 3-10-ホ: 1 to 1 on the total stake */
    }
    if (h->cards == 3 && h->first >= 6 && h->first <= 8 && h->second >= 6 && h->second <= 8 && h->third >= 6 &&
        h->third <= 8) {
        /* three of 6..8 totalling 21: 6-7-8 or 7-7-7; then mixed, one suit, or spades (bit 0) */
        uint32_t base = h->first == 7 && h->second == 7 ? 6 : 3;
        uint32_t one_suit = (h->suits & (h->suits - 1)) == 0;
        return r->bonus_units[base + (one_suit ? (h->suits == 1 ? 2 : 1) : 0)];
    }
    if (h->cards >= 5) {
        return r->bonus_units[(h->cards < 7 ? h->cards : 7) - 5];
    }
    return KERN_TW_DEN;
}

/* The side-bet class of the seat's first two cards c1, c2 and the upcard (twentyone.h). */
static inline uint32_t side_class(uint32_t c1, uint32_t up, uint32_t c2)
{
    uint32_t kind = 0;
    if ((c1 & 15) == (c2 & 15)) {
        uint32_t s1 = (c1 >> 4) & 3, s2 = (c2 >> 4) & 3;
        int red1 = s1 == 1 || s1 == 2, red2 = s2 == 1 || s2 == 2; /* hearts, diamonds */
        kind = s1 == s2 ? 3 : red1 == red2 ? 2 : 1;
    }
    return kind | (uint32_t)((c1 & 0x3F) == (up & 0x3F)) << 2;
}

/* Deal the next card's value to var (and its suit bit to `suit`). */
#define DEAL(var)                                   \
    do {                                            \
        if (pos >= n) {                             \
            return KERN_TW_OUT_OF_CARDS;            \
        }                                           \
        suit = 1u << ((c[pos] >> 4) & 3);           \
        (var) = VALUE[c[pos++] & 15];               \
        if (!(var)) {                               \
            return RNG_E_ARGUMENT;                  \
        }                                           \
    } while (0)

/* The Super Match class of four first cards by rank (twentyone.h): how many of
 * their six pairs share a rank tells none 0, one pair 1, two pair 2, three 3, four 6. */
static inline uint32_t match_class(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    static const uint8_t CLASS[7] = {0, 1, 2, 3, 0, 0, 4};
    uint32_t r[4] = {a & 15, b & 15, c & 15, d & 15}, same = 0;
    for (int i = 0; i < 4; i++) {
        for (int j = i + 1; j < 4; j++) {
            same += r[i] == r[j];
        }
    }
    return CLASS[same];
}

/* The bet-behind's stake on a finished hand of the first area (twentyone.h): 0 if it does not follow it. */
static inline int32_t behind_stake(const kern_tw_rules *r, const hand *h, uint32_t area)
{
    if (area || !(h->first_hand || r->follow_split)) {
        return 0;
    }
    return h->stake == 2 && !r->follow_double ? 1 : h->stake;
}

static inline int natural(uint32_t a, uint32_t b)
{
    return a + b == 11 && (a == 1 || b == 1);
}

/* One round from c[*at..n): the statement in twentyone.h, step for step as
 * harness.games.twentyone's reference engine plays it; with two areas
 * (switch_hands) each area is a seat's hand of that statement, played in
 * turn, against one dealer. */
static int play_round(const kern_tw_table *t, const uint16_t *c, uint32_t n, uint32_t *at, int32_t *nets_out,
                      uint32_t *side_out, uint32_t *hands_out)
{
    const kern_tw_rules *r = &t->rules;
    const uint32_t areas = r->switch_hands ? 2 : 1;
    uint32_t pos = *at, first[2] = {0, 0}, second[2] = {0, 0}, up, hole = 0, v, suit = 0;
    uint32_t first_suit[2] = {0, 0}, second_suit[2] = {0, 0};
    if (pos + 2 * areas + 1 > n) {
        return KERN_TW_OUT_OF_CARDS;
    }
    *side_out = areas == 1 ? side_class(c[pos], c[pos + 1], c[pos + 2])
                           : match_class(c[pos], c[pos + 1], c[pos + 3], c[pos + 4]);
    for (uint32_t a = 0; a < areas; a++) {
        DEAL(first[a]);
        first_suit[a] = suit;
    }
    DEAL(up);
    for (uint32_t a = 0; a < areas; a++) {
        DEAL(second[a]);
        second_suit[a] = suit;
    }
    hand dealer;
    start(&dealer, up, 0, 0);
    if (r->hole_card) {
        DEAL(hole);
        take(&dealer, hole, 0);
    }
    int peeks = r->hole_card && (up == 1 || up == 10);
    int dealer_bj = dealer.cards == 2 && dealer.hard == 11 && dealer.aces;
    int32_t net[2] = {0, 0}, behind = 0;   /* behind: the bet-behind's net, when it differs from net[0] */
    int behind_own = 0;                    /* behind is its own (the seat played hands), not net[0] */
    uint32_t n_hands = areas;
    if (areas == 1 && natural(first[0], second[0]) && up == 1 && r->even_money) {
        net[0] = KERN_TW_DEN; /* 000 1-7: even money, paid at once, before the peek */
        goto done;
    }
    if (peeks && dealer_bj) {
        for (uint32_t a = 0; a < areas; a++) {
            net[a] = natural(first[a], second[a]) ? 0 : -KERN_TW_DEN;
        }
        goto done;
    }
    if (areas == 2 && t->swaps[kern_tw_swap_index(up, first[0], second[0], first[1], second[1])]) {
        /* 000 第2 2-8-ニ: the second cards change areas */
        uint32_t x = second[0];
        second[0] = second[1];
        second[1] = x;
        x = second_suit[0];
        second_suit[0] = second_suit[1];
        second_suit[1] = x;
        *side_out |= KERN_TW_SWAPPED;
    }

    hand done_hands[2 * KERN_TW_MAX_HANDS], waiting[KERN_TW_MAX_HANDS];
    uint32_t owner[2 * KERN_TW_MAX_HANDS], n_done = 0, surrenders = 0;
    int bj[2] = {0, 0};
    for (uint32_t a = 0; a < areas; a++) {
        bj[a] = natural(first[a], second[a]);
        if (bj[a]) {
            continue;   /* settled against the dealer's blackjack alone */
        }
        uint32_t n_waiting = 1, area_hands = 1;
        int surrendered = 0;
        start(&waiting[0], first[a], first_suit[a], 0);
        take(&waiting[0], second[a], second_suit[a]);
        while (n_waiting && !surrendered) {
            hand h = waiting[--n_waiting];
            for (;;) {
                uint8_t act = t->cells[kern_tw_cell_index(h.context, up, area_hands < r->max_hands,
                                                          hand_key(&h, r->pontoon))];
                if (act == KERN_TW_STAND) {
                    break;
                }
                if (act == KERN_TW_SURRENDER) {
                    surrendered = 1;
                    break;
                }
                if (act == KERN_TW_SPLIT) {
                    /* 000 1-9-ニ-(1): each card of the pair gets one more at once; this hand first */
                    uint32_t x = h.first, context = x == 1 ? 2 : 1, first_hand = h.first_hand;
                    uint32_t s1 = h.first_suit, s2 = h.second_suit;
                    area_hands++;
                    n_hands++;
                    start(&h, x, s1, context);
                    h.first_hand = first_hand;   /* this hand is completed first: it keeps its place */
                    DEAL(v);
                    take(&h, v, suit);
                    hand *other = &waiting[n_waiting++];
                    start(other, x, s2, context);
                    other->first_hand = 0;
                    DEAL(v);
                    take(other, v, suit);
                    continue;
                }
                if (act > KERN_TW_SURRENDER) {
                    return KERN_TW_NO_PLAY;
                }
                DEAL(v);
                take(&h, v, suit);
                if (act == KERN_TW_DOUBLE) {
                    h.stake = 2;
                    if (r->pontoon) {
                        /* 3-5-ロ-(1): its aces count 1; 3-7-ホ: at 20 or less it may be rescued */
                        h.doubled = 1;
                        if (h.hard <= 20) {
                            uint8_t keep = t->cells[kern_tw_cell_index(h.context ? 4 : 3, up, 0,
                                                                       KERN_TW_PAIRS + h.hard)];
                            if (keep != KERN_TW_STAND && keep != KERN_TW_RESCUE) {
                                return KERN_TW_NO_PLAY;
                            }
                            h.rescued = keep == KERN_TW_RESCUE;
                        }
                    }
                    break;
                }
                if (h.context == 2) {
                    h.context = 1;
                }
                if (best_total(h.hard, h.aces) >= 21) {
                    break;
                }
            }
            if (!surrendered) {
                owner[n_done] = a;
                done_hands[n_done++] = h;
            }
        }
        if (surrendered) {
            net[a] = r->surrender_units;   /* only the initial hand surrenders: nothing else was played */
            surrenders |= 1u << a;
        }
    }

    int32_t live_stakes[2] = {0, 0}, busted[2] = {0, 0};
    uint32_t live = 0, busts = 0;
    /* The bet-behind is 001's, a hole-card game (twentyone.h): with the hole card a dealer
     * blackjack has an A or a ten up, so the peek above ended the round before any play, and
     * every hand played is settled by a bust or against the dealer's drawn total below. */
    behind_own = r->hole_card && n_done > 0 && owner[0] == 0;
    for (uint32_t i = 0; i < n_done; i++) {
        if (hand_total(&done_hands[i]) > 21) {
            net[owner[i]] -= done_hands[i].stake * KERN_TW_DEN; /* a bust is settled at once (000 1-9-ホ) */
            busted[owner[i]] += done_hands[i].stake;
            busts++;
            behind -= behind_stake(r, &done_hands[i], owner[i]) * KERN_TW_DEN;
        } else if (done_hands[i].rescued) {
            net[owner[i]] -= KERN_TW_DEN;                       /* Pontoon 3-7-ホ: the original stake, at once */
        } else {
            owner[live] = owner[i];
            done_hands[live++] = done_hands[i];
            live_stakes[owner[i]] += done_hands[i].stake;
        }
    }
    /* 000 1-10-ハ (2-9-ハ; Pontoon's 3-8 applies it): when every hand has busted the dealer settles
     * at once, notwithstanding 10-イ, so no second card is dealt; a blackjack, a surrender or a
     * rescued hand is no bust, and then the card is dealt (10-イ) */
    int every_hand_busted = n_done > 0 && busts == n_done && !surrenders && !bj[0] && !bj[1];
    if (!r->hole_card && !every_hand_busted) {
        DEAL(v);
        take(&dealer, v, 0);
    }
    dealer_bj = dealer.cards == 2 && dealer.hard == 11 && dealer.aces;
    for (uint32_t a = 0; a < areas; a++) {
        if (bj[a]) {
            net[a] = dealer_bj && !r->pontoon ? 0 : r->blackjack_units;   /* Pontoon 3-5-ハ: paid at once */
        }
        if (r->pontoon && dealer_bj && (surrenders >> a & 1)) {
            net[a] = -KERN_TW_DEN;   /* 3-10-ロ: the half is returned only without a dealer pontoon */
        }
    }
    if (!live) {
        goto done; /* every hand settled: the dealer does not draw (1-10-ハ) */
    }
    if (r->pontoon) {
        /* 3-9-ロ-(1)-(一): a 21 wins whatever the dealer holds; the rest play on */
        uint32_t rest = 0;
        for (uint32_t i = 0; i < live; i++) {
            if (hand_total(&done_hands[i]) == 21) {
                net[owner[i]] += pontoon_win(r, &done_hands[i]);
                live_stakes[owner[i]] -= done_hands[i].stake;
            } else {
                owner[rest] = owner[i];
                done_hands[rest++] = done_hands[i];
            }
        }
        live = rest;
        if (dealer_bj && !live) {
            goto done;
        }
    }
    if (dealer_bj) {
        /* no hole card: a dealer blackjack takes the original stake only (1-12-ロ) */
        for (uint32_t a = 0; a < areas; a++) {
            if (live_stakes[a]) {
                net[a] -= (r->original_bet_only ? 1 : live_stakes[a]) * KERN_TW_DEN;
                if (r->original_bet_only && r->split_busts_returned) {
                    net[a] += busted[a] * KERN_TW_DEN;   /* 1-12-ロ read for the whole area */
                }
            }
        }
        goto done;   /* no hole card: the bet-behind is not its own (behind_own) */
    }
    for (;;) {
        uint32_t total = best_total(dealer.hard, dealer.aces);
        if (total > 17 || (total == 17 && !(r->hit_soft_17 && soft(dealer.hard, dealer.aces)))) {
            break;
        }
        DEAL(v);
        take(&dealer, v, 0);
    }
    uint32_t dealer_total = best_total(dealer.hard, dealer.aces);
    for (uint32_t i = 0; i < live; i++) {
        uint32_t total = hand_total(&done_hands[i]);
        /* the hand's result per unit staked: +1, 0 or -1 */
        int32_t sign = dealer_total > 21 ? (dealer_total == 22 && r->dealer_22_push ? 0 : 1)
                                         : (total > dealer_total) - (total < dealer_total);
        net[owner[i]] += sign * done_hands[i].stake * KERN_TW_DEN;
        behind += sign * behind_stake(r, &done_hands[i], owner[i]) * KERN_TW_DEN;
    }
done:
    nets_out[0] = net[0];
    nets_out[1] = net[1];
    nets_out[2] = behind_own ? behind : net[0];   /* a round the seat did not play out: it follows the seat */
    *hands_out = n_hands;
    *at = pos;
    return RNG_OK;
}

int kern_tw_table_init(kern_tw_table *t, const uint16_t *fresh, uint32_t n, const kern_bac_rules *shoe,
                       const kern_tw_rules *rules, const uint8_t *cells)
{
    if (n < 20 || n > KERN_BAC_MAX_SHOE || shoe->fresh_each_round || shoe->burn_each_round || shoe->burn_mode > 2 ||
        shoe->cut_behind_lo > shoe->cut_behind_hi || shoe->cut_behind_lo < 10 || shoe->cut_behind_hi >= n ||
        2 * shoe->cut_min_from_end > n) {
        return RNG_E_ARGUMENT;
    }
    if (rules->max_hands < 1 || rules->max_hands > KERN_TW_MAX_HANDS || rules->even_money > 1 ||
        rules->switch_hands > 1 || (rules->switch_hands && rules->even_money) || rules->follow_double > 1 ||
        rules->split_busts_returned > 1 ||
        (rules->split_busts_returned && (rules->pontoon || !rules->original_bet_only)) ||
        rules->follow_split > 1 || rules->pontoon > 1 || rules->double_any_cards > 1 ||
        (rules->pontoon && (rules->hole_card || rules->switch_hands || rules->even_money)) ||
        rules->blackjack_units < -KERN_TW_NET_OFFSET || rules->blackjack_units > KERN_TW_NET_OFFSET ||
        rules->surrender_units < -KERN_TW_DEN || rules->surrender_units > 0) {
        return RNG_E_ARGUMENT;
    }
    for (uint32_t context = 0; context < KERN_TW_CONTEXTS; context++) {
        for (uint32_t up = 1; up <= 10; up++) {
            for (uint32_t can = 0; can < 2; can++) {
                for (uint32_t a = 1; a <= 10; a++) {
                    for (uint32_t b = a; b <= 10; b++) {
                        uint8_t act = cells[kern_tw_cell_index(context, up, can, kern_tw_pair_key(a, b))];
                        if (act == KERN_TW_SPLIT && (a != b || !can)) {
                            return RNG_E_ARGUMENT;
                        }
                    }
                }
                for (uint32_t key = KERN_TW_PAIRS; key < KERN_TW_HAND_KEYS; key++) {
                    uint8_t act = cells[kern_tw_cell_index(context, up, can, key)];
                    if (act == KERN_TW_SPLIT) {
                        return RNG_E_ARGUMENT;
                    }
                }
            }
        }
    }
    for (int32_t i = 0; i < KERN_TW_BONUSES; i++) {
        if (rules->bonus_units[i] < 0 || rules->bonus_units[i] > 3 * KERN_TW_DEN) {
            return RNG_E_ARGUMENT;
        }
    }
    if (rules->pontoon && 3 * rules->max_hands > KERN_TW_MAX_STAKES) {
        return RNG_E_ARGUMENT;   /* a 3 to 1 bonus on every hand must fit the nets' range */
    }
    for (uint32_t i = 0; i < KERN_TW_CELLS; i++) {
        /* a rescue only in the rescue contexts (3, 4), and there only keep or rescue */
        uint32_t rescue_context = i / (10 * 2 * KERN_TW_HAND_KEYS) >= 3;
        uint8_t act = cells[i];
        if (act == KERN_TW_NO_CELL) {
            continue;
        }
        if (rescue_context ? act != KERN_TW_STAND && act != KERN_TW_RESCUE : act > KERN_TW_SURRENDER) {
            return RNG_E_ARGUMENT;
        }
    }
    memset(t, 0, sizeof *t);
    int status = kern_shoe_init(&t->shoe, fresh, n, shoe);
    if (status != RNG_OK) {
        return status;
    }
    t->rules = *rules;
    memcpy(t->cells, cells, KERN_TW_CELLS);
    return RNG_OK;
}

int kern_tw_play(rng_source *src, kern_tw_table *t, uint64_t rounds, uint64_t *nets, uint64_t *sides,
                 uint64_t *firsts, uint64_t *behind, int32_t *net_log, uint8_t *side_log, int32_t *behind_log,
                 unsigned bits)
{
    kern_shoe *s = &t->shoe;
    if (s->n < 20 || s->n > KERN_BAC_MAX_SHOE) {
        return RNG_E_ARGUMENT;
    }
    for (uint64_t i = 0; i < rounds; i++) {
        uint64_t shoes = s->shoes;
        int status = kern_shoe_ready(src, s, bits);
        if (status != RNG_OK) {
            return status;
        }
        uint32_t begin = s->pos, pos = begin, side, hands;
        int32_t area_nets[3];
        status = play_round(t, s->cards, s->n, &pos, area_nets, &side, &hands);
        int32_t net = area_nets[0];
        if (status != RNG_OK) {
            return status;
        }
        nets[net + KERN_TW_NET_OFFSET]++;
        if (firsts && s->shoes != shoes) {
            firsts[t->rules.switch_hands ? side
                   : hands > 1             ? KERN_TW_SPLIT_CLASS
                                           : (uint32_t)(net + KERN_TW_NET_OFFSET)]++;
        }
        sides[side]++;
        if (behind) {
            behind[area_nets[2] + KERN_TW_NET_OFFSET]++;
        }
        if (behind_log) {
            behind_log[i] = area_nets[2];
        }
        if (net_log) {
            net_log[i] = net;
        }
        if (side_log) {
            side_log[i] = (uint8_t)side;
        }
        s->pos = pos;
        kern_shoe_round_end(s, begin, begin); /* 000 第2 1-15: the round the cut card comes out in is the last */
        t->rounds++;
    }
    return src->status;
}

int kern_tw_round_areas(const kern_tw_table *t, const uint16_t *cards, uint32_t n, int32_t *nets, uint32_t *side,
                        uint32_t *used, uint32_t *hands)
{
    uint32_t pos = 0;
    int status = play_round(t, cards, n, &pos, nets, side, hands);
    *used = pos;
    return status;
}

int kern_tw_round(const kern_tw_table *t, const uint16_t *cards, uint32_t n, int32_t *net, uint32_t *side,
                  uint32_t *used, uint32_t *hands)
{
    int32_t nets[3];
    int status = kern_tw_round_areas(t, cards, n, nets, side, used, hands);
    *net = nets[0];
    return status;
}

uint32_t kern_tw_swap_cell(uint32_t u, uint32_t a1, uint32_t a2, uint32_t b1, uint32_t b2)
{
    return kern_tw_swap_index(u, a1, a2, b1, b2);
}

int kern_tw_set_swaps(kern_tw_table *t, const uint8_t *swaps)
{
    if (!t->rules.switch_hands) {
        return RNG_E_ARGUMENT;
    }
    for (uint32_t i = 0; i < KERN_TW_SWAPS; i++) {
        if (swaps[i] > 1) {
            return RNG_E_ARGUMENT;
        }
    }
    memcpy(t->swaps, swaps, KERN_TW_SWAPS);
    return RNG_OK;
}
