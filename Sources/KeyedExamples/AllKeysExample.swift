import KeyedCodable

// Enumerating the members of an object whose keys only the data knows.

/// One stored payment method.
public struct PaymentMethod: Decodable, Equatable, Sendable {
  public let type: String
}

/// Every payment method in the vault, whatever its key.
public struct PaymentMethods: Decodable, Keyedable {
  public private(set) var userPaymentMethods: [PaymentMethod] = []

  enum CodingKeys: String, CodingKey {
    case vault
  }

  public mutating func map(map: KeyMap) throws {
    guard case .decoding(let keys) = map.type else { return }

    keys.all(for: CodingKeys.vault).forEach { key in
      var paymentMethod: PaymentMethod?
      try? paymentMethod <<- map[key]
      if let paymentMethod = paymentMethod {
        userPaymentMethods.append(paymentMethod)
      }
    }
  }

  public init(from decoder: Decoder) throws {
    try KeyedDecoder(with: decoder).decode(to: &self)
  }
}

extension Example {
  /// The README example of this file.
  public static var allKeys: Example {
    make(
      "All keys",
      json: """
        {
          "vault": {
            "0": { "type": "Braintree_CreditCard" },
            "1": { "type": "Braintree_CreditCard" },
            "2": { "type": "Braintree_PayPalAccount" }
          }
        }
        """,
      decodingOnly: PaymentMethods.self
    ) { methods in
      ["userPaymentMethods = \(methods.userPaymentMethods.map(\.type).sorted())"]
    }
  }
}
