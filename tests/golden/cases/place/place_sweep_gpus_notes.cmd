args: place --model 405b --system dgx-h100 --sweep gpus=4:16:4 --top 2
exit: 0
