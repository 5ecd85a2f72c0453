args: place --model 70b --system dgx-a100 --gpus 32 --top 5
exit: 0
