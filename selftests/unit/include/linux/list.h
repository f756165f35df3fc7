/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/list.h>: the circular
 * doubly linked list with the calls the pure files use, same names and
 * meaning, written for the unit tests.
 */
#ifndef _XTP_SELFTEST_LIST_H
#define _XTP_SELFTEST_LIST_H

#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

/* Insert @n right after @at. */
static inline void list_add(struct list_head *n, struct list_head *at)
{
	n->prev = at;
	n->next = at->next;
	at->next->prev = n;
	at->next = n;
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	list_add(n, h->prev);
}

static inline void list_del(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = NULL;
	n->prev = NULL;
}

static inline int list_empty(const struct list_head *h)
{
	return h->next == h;
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(h, type, member) \
	list_entry((h)->next, type, member)
#define list_first_entry_or_null(h, type, member) \
	(list_empty(h) ? NULL : list_first_entry(h, type, member))
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)

#define list_for_each_entry(pos, h, member)				\
	for (pos = list_first_entry(h, __typeof__(*pos), member);	\
	     &pos->member != (h); pos = list_next_entry(pos, member))

#define list_for_each_entry_reverse(pos, h, member)			\
	for (pos = list_entry((h)->prev, __typeof__(*pos), member);	\
	     &pos->member != (h); pos = list_prev_entry(pos, member))

#define list_for_each_entry_safe(pos, n, h, member)			\
	for (pos = list_first_entry(h, __typeof__(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     &pos->member != (h);					\
	     pos = n, n = list_next_entry(n, member))

#endif /* _XTP_SELFTEST_LIST_H */
