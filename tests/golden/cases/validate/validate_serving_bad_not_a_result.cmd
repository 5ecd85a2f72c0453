args: validate --serving serving/bad/not_a_result.json --model 70b --system aws-p4d
exit: 2
