args: place --model 70b --system l40s-8 --pcie-topology switch
exit: 0
