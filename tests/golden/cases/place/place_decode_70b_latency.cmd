args: place --model 70b --system dgx-h100 --gpus 8 --phase decode --batch 32 --context 2048
exit: 0
