args: place --model 70b --system dgx-h100 --gpus 16 --format csv
exit: 0
