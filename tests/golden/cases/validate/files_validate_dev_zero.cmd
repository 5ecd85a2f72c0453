args: validate /dev/zero
exit: 2
