import Foundation
import KeyedExamples

// Runs every example of the README: prints what each decodes and the JSON it encodes back.

var failures = 0
for example in Example.all {
  print("== \(example.name)")
  do {
    let output = try example.run()
    for line in output.decoded {
      print("  decoded  \(line)")
    }
    if let encoded = output.encoded {
      print("  encoded  \(encoded)")
    }
  } catch {
    failures += 1
    print("  FAILED   \(error)")
  }
  print()
}
if failures > 0 {
  print("\(failures) example(s) failed")
  exit(1)
}
