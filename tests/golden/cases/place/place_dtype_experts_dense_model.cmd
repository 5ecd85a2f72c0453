args: place --model 70b --system dgx-h100 --gpus 8 --dtype experts=fp4
exit: 2
