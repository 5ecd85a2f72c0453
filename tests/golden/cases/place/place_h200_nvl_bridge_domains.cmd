args: place --model 70b --system h200-nvl-8 --phase decode --context 2048
exit: 0
