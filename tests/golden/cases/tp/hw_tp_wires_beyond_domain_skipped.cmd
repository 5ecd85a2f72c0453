args: tp --model 405b --gpus 32 --json
exit: 0
