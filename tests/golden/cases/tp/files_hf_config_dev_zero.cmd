args: tp --hf-config /dev/zero
exit: 2
