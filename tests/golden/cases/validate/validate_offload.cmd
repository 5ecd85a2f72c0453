args: validate --offload
exit: 0
