// SPDX-License-Identifier: GPL-2.0
/*
 * withxtp-check: does this kernel support XTP?  Opens the socket withxtp
 * would (which autoloads the module when it is installed).  Exit 0 if so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <netinet/in.h>

#include <linux/xtp.h>

int main(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, IPPROTO_XTP);
	struct utsname u;

	uname(&u);
	if (fd < 0) {
		printf("withxtp: XTP is not available on Linux %s: %s\n",
		       u.release, strerror(errno));
		return 1;
	}
	close(fd);
	printf("withxtp: XTP is available on Linux %s "
	       "(SOCK_STREAM with IPPROTO_XTP)\n", u.release);
	return 0;
}
