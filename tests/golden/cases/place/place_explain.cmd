args: place --model 405b --system dgx-h100 --gpus 32 --explain
exit: 0
