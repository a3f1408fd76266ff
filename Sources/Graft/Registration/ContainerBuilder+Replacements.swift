/// Registrations of a (type, name) made again: the later one answers `resolve`.
extension ContainerBuilder {
    /// Every registration that a later one of the same type and name replaces, in the order the
    /// replacements were made. Last-wins is the rule, so a replacement is no problem; this list
    /// is for reading (a `.singleton` that became transient by a second `register` is easy to
    /// miss). ``validate()-3o4z6`` keeps meaning "what `build()` throws", so it does not include them;
    /// set ``rejectsLifetimeChangingReplacements`` to make `build()` reject the risky ones.
    /// Replacements made by ``Container/overriding(_:)-1avvp`` are intended and not listed.
    ///
    /// ```swift
    /// for replacement in builder.replacements { print(replacement) }
    /// // Engine registered at App/Setup.swift:12 (.singleton) is replaced by the registration
    /// // at App/Setup.swift:30 (.transient)
    /// ```
    ///
    /// `resolveAll` still returns both registrations.
    public var replacements: [Replacement] {
        var latest: [ServiceKey: Int] = [:]
        var found: [Replacement] = []
        for (index, registration) in registrations.enumerated() {
            if let earlier = latest[registration.key] {
                found.append(Replacement(replaced: registrations[earlier], by: registration))
            }
            latest[registration.key] = index
        }
        return found
    }

    /// The replacements that change the lifetime, as build problems, when the option is set.
    func lifetimeChangingReplacements() -> [GraftError] {
        guard rejectsLifetimeChangingReplacements else { return [] }
        return replacements.filter(\.changesLifetime).map { replacement in
            GraftError(
                .lifetimeReplaced,
                "\(replacement.service) is registered again with another lifetime: "
                    + "\(replacement.replacedLabel) at \(replacement.replacedAt), "
                    + "\(replacement.replacementLabel) at \(replacement.replacementAt)",
                service: replacement.service,
                hints: [
                    "the later registration wins; give both the same lifetime, remove one, or register one "
                        + "with a name (rejectsLifetimeChangingReplacements is set)"
                ]
            )
        }
    }
}

/// One registration replaced by a later one of the same type and name.
public struct Replacement: Sendable, Hashable, CustomStringConvertible {
    /// The service, as messages show it: `Engine` or `Engine["v12"]`.
    public let service: String
    /// Where the replaced registration was made, as `file:line`.
    public let replacedAt: String
    /// Where the replacing registration was made, as `file:line`.
    public let replacementAt: String
    /// The replaced registration's lifetime.
    public let replacedLifetime: Lifetime
    /// The replacing registration's lifetime.
    public let replacementLifetime: Lifetime
    /// Whether either is an alias, whose lifetime is its target's, so the two are not compared.
    let involvesAlias: Bool
    /// The lifetimes as messages spell them, with the tag of a `.scoped(in:)` one.
    let replacedLabel: String
    let replacementLabel: String

    init(replaced: Registration, by replacement: Registration) {
        service = replaced.key.description
        replacedAt = replaced.source.description
        replacementAt = replacement.source.description
        replacedLifetime = replaced.publicLifetime
        replacementLifetime = replacement.publicLifetime
        involvesAlias = replaced.kind == .alias || replacement.kind == .alias
        replacedLabel = replaced.lifetimeLabel
        replacementLabel = replacement.lifetimeLabel
    }

    /// Whether the replacement answers with another lifetime than the registration it replaces.
    public var changesLifetime: Bool {
        !involvesAlias && replacedLabel != replacementLabel
    }

    /// `Engine registered at A.swift:12 (.singleton) is replaced by the registration at
    /// A.swift:30 (.transient)`.
    public var description: String {
        "\(service) registered at \(replacedAt) (\(replacedLabel)) is replaced by the registration at "
            + "\(replacementAt) (\(replacementLabel))"
    }
}
