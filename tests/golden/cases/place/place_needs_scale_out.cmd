args: place --model 70b --gpu h100 --gpus 16
exit: 2
