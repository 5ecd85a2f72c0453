args: validate --offload --json
exit: 0
