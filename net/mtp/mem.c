// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: who pays for what servers keep.  A record is made in softirq for
 * whoever sent a request, so it is charged to the memory cgroup of the
 * socket that keeps it, not of whatever task the softirq interrupted.  A
 * kept answer is copied in by the answering task, and charged to its
 * cgroup at the copy (GFP_KERNEL_ACCOUNT).  Beside each socket's
 * net.mtp.cache_sock_bytes, the sockets of all namespaces together keep
 * at most cache_total_bytes of answers (module parameter; by default a
 * sixteenth of the memory for buffers, as tcp_mem bounds TCP), so that
 * many sockets cannot each keep their 32 MiB.
 */
#include <linux/moduleparam.h>
#include <linux/swap.h>

#include "mtp.h"

static atomic_long_t mtp_cached_total = ATOMIC_LONG_INIT(0);
static unsigned long mtp_cache_total_bytes;
module_param_named(cache_total_bytes, mtp_cache_total_bytes, ulong, 0644);
MODULE_PARM_DESC(cache_total_bytes,
		 "bytes of answers all MTP server sockets keep together");

/**
 * mtp_mem_cache_charge() - may @n more bytes of answers be kept?
 * @n: bytes
 *
 * Return: true, and they count, if all sockets' kept answers stay within
 * cache_total_bytes; false, and nothing counts, otherwise.
 */
bool mtp_mem_cache_charge(size_t n)
{
	unsigned long limit = READ_ONCE(mtp_cache_total_bytes);

	if (atomic_long_add_return(n, &mtp_cached_total) <= (long)limit)
		return true;
	atomic_long_sub(n, &mtp_cached_total);
	return false;
}

/* @n bytes of answers are no longer kept. */
void mtp_mem_cache_uncharge(size_t n)
{
	atomic_long_sub(n, &mtp_cached_total);
}

void __init mtp_mem_init(void)
{
	unsigned long pages = max(nr_free_buffer_pages() / 16, 128UL);

	if (!mtp_cache_total_bytes)
		mtp_cache_total_bytes = pages << PAGE_SHIFT;
}
