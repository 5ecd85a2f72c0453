args: place --model 405b --system dgx-h100 --gpus 32 --json
exit: 0
