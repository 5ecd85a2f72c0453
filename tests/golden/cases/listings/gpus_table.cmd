args: gpus
exit: 0
